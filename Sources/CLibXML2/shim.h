#ifndef CDQI_CLIBXML2_SHIM_H
#define CDQI_CLIBXML2_SHIM_H

/* Keep ICU's headers out of the Swift module graph: Debian's libxml2 is built with ICU, and
   <libxml/encoding.h> would otherwise pull <unicode/ucnv.h>, whose UErrorCode clashes with
   Foundation's _FoundationICU on a clean build (see reliability.md §3). */
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/xmlerror.h>
#include <libxml/tree.h>

#endif
