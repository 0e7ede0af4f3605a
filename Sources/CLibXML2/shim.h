// libxml2's SAX2 parser, for switchd's SVG floor plans (Sources/switchd/Floors/Plans/SVGParser.swift):
// FoundationXML's XMLParser always asks libxml2 to substitute entities (XML_PARSE_NOENT) and
// gives no way to refuse a DTD, so switchd calls libxml2 itself with options it chooses.
#include <libxml/xmlversion.h>
// Debian's libxml2 is built with ICU, and its encoding.h then includes the system's ICU headers,
// whose enums clash with the ICU that Foundation carries (swift-foundation-icu) in every Swift file
// importing both. switchd uses no ICU converter: the fields ICU adds to xmlCharEncodingHandler
// come after `name`, the only one read, and switchd never allocates or copies that struct.
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/xmlerror.h>
