#ifndef RIGBOOK_CQRENCODE_SHIM_H
#define RIGBOOK_CQRENCODE_SHIM_H
// libqrencode (Debian libqrencode-dev): the QR codes of labels. Only Sources/RigbookQR/QREncoder.swift imports it.
#include <qrencode.h>
#endif
