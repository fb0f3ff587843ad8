#ifndef RIGBOOK_CPANGOCAIRO_SHIM_H
#define RIGBOOK_CPANGOCAIRO_SHIM_H
// cairo's PDF surface and pango's text layout on it (Debian libcairo2-dev, libpango1.0-dev): the PDF of every
// printed document. Only Sources/RigbookPDF imports it.
#include <cairo.h>
#include <cairo-pdf.h>
#include <pango/pangocairo.h>
// glibc's malloc_trim: what a long document's content freed is handed back before cairo finishes its PDF.
#if defined(__linux__)
#include <malloc.h>
#endif
#endif
