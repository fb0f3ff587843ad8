#ifndef RIGBOOK_CQPDF_SHIM_H
#define RIGBOOK_CQPDF_SHIM_H
// qpdf's C API (Debian libqpdf-dev): what cairo's PDF surface cannot do to its output, embedding a file in it.
// Only Sources/RigbookPDF imports it.
#include <qpdf/qpdf-c.h>
#endif
