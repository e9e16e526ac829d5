/* The check of SVG pictures people send (see svgcheck.h): a SAX walk
 * with libxml2's push parser, which counts as it reads and is stopped at
 * the first limit passed. Only the callbacks below are set: no document
 * is built, no entity declared in the document is kept or expanded (the
 * declaration itself refuses it), and without XML_PARSE_DTDLOAD and with
 * XML_PARSE_NONET nothing outside the bytes is read. Errors go to our
 * structured handler, never to stderr. */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include "media/svgcheck.h"

/* Fed to the parser in pieces, so a stop takes effect soon. */
#define SVGCHECK_CHUNK 65536

struct svgcheck_walk {
	const struct svgcheck_limits *lim;
	xmlParserCtxtPtr ctxt;
	long elements, filters;
	long long text_bytes;
	int depth;               /* open elements */
	int text_depth;          /* open text, tspan and textPath elements */
	int refused;             /* a limit passed: why is in msg */
	int xml_error;           /* libxml2's first error: in msg */
	char msg[256];
};

static void svgcheck_stop(struct svgcheck_walk *w, const char *msg)
{
	if (w->refused)
		return;
	w->refused = 1;
	snprintf(w->msg, sizeof w->msg, "%s", msg);
	xmlStopParser(w->ctxt);
}

/* Text content elements: their character data is laid out as text. */
static int svgcheck_is_text(const xmlChar *name)
{
	const char *n = (const char *)name;

	return strcmp(n, "text") == 0 || strcmp(n, "tspan") == 0 || strcmp(n, "textPath") == 0;
}

/* A filter primitive, or one of their children (feFuncR, feMergeNode,
 * the light sources): every element named fe and a capital. */
static int svgcheck_is_filter(const xmlChar *name)
{
	return name[0] == 'f' && name[1] == 'e' && name[2] >= 'A' && name[2] <= 'Z';
}

static void svgcheck_start(void *ctx, const xmlChar *localname, const xmlChar *prefix,
			   const xmlChar *uri, int nns, const xmlChar **ns, int nattrs,
			   int ndefaulted, const xmlChar **attrs)
{
	struct svgcheck_walk *w = ctx;
	char msg[160];

	if (++w->elements > w->lim->max_elements) {
		snprintf(msg, sizeof msg, "the SVG has more than %ld elements", w->lim->max_elements);
		svgcheck_stop(w, msg);
	}
	if (svgcheck_is_filter(localname) && ++w->filters > w->lim->max_filters) {
		snprintf(msg, sizeof msg, "the SVG has more than %ld filter primitives (fe elements)",
			 w->lim->max_filters);
		svgcheck_stop(w, msg);
	}
	if (++w->depth > SVGCHECK_MAX_DEPTH) {
		snprintf(msg, sizeof msg, "the SVG nests elements more than %d deep",
			 SVGCHECK_MAX_DEPTH);
		svgcheck_stop(w, msg);
	}
	if (svgcheck_is_text(localname))
		w->text_depth++;
}

static void svgcheck_end(void *ctx, const xmlChar *localname, const xmlChar *prefix,
			 const xmlChar *uri)
{
	struct svgcheck_walk *w = ctx;

	w->depth--;
	if (svgcheck_is_text(localname) && w->text_depth > 0)
		w->text_depth--;
}

static void svgcheck_chars(void *ctx, const xmlChar *ch, int len)
{
	struct svgcheck_walk *w = ctx;
	char msg[160];

	if (w->text_depth == 0)
		return;
	w->text_bytes += len;
	if (w->text_bytes > w->lim->max_text_bytes) {
		snprintf(msg, sizeof msg, "the SVG has more than %lld bytes of text",
			 w->lim->max_text_bytes);
		svgcheck_stop(w, msg);
	}
}

static void svgcheck_entity(void *ctx, const xmlChar *name, int type, const xmlChar *public_id,
			    const xmlChar *system_id, xmlChar *content)
{
	svgcheck_stop(ctx, "the SVG declares XML entities, which are not accepted "
		      "(save it without a DOCTYPE that declares them)");
}

static void svgcheck_error(void *ctx, xmlErrorPtr e)
{
	struct svgcheck_walk *w = ctx;
	size_t n;

	if (w->refused || w->xml_error || e == NULL || e->level < XML_ERR_FATAL)
		return;
	w->xml_error = 1;
	snprintf(w->msg, sizeof w->msg, "the SVG is not well-formed XML (line %d: %s", e->line,
		 e->message ? e->message : "unreadable");
	n = strlen(w->msg);
	while (n > 0 && (w->msg[n - 1] == '\n' || w->msg[n - 1] == ' '))
		w->msg[--n] = '\0';
	snprintf(w->msg + n, sizeof w->msg - n, ")");
}

static void svgcheck_handler(xmlSAXHandler *h)
{
	memset(h, 0, sizeof *h);
	h->initialized = XML_SAX2_MAGIC;
	h->startElementNs = svgcheck_start;
	h->endElementNs = svgcheck_end;
	h->characters = svgcheck_chars;
	h->ignorableWhitespace = svgcheck_chars;
	h->cdataBlock = svgcheck_chars;
	h->entityDecl = svgcheck_entity;
	h->serror = svgcheck_error;
}

/* Feeds the bytes to the parser until the end or a stop. */
static void svgcheck_parse(struct svgcheck_walk *w, const char *p, size_t len)
{
	xmlSAXHandler h;

	svgcheck_handler(&h);
	w->ctxt = xmlCreatePushParserCtxt(&h, w, NULL, 0, NULL);
	if (w->ctxt == NULL) {
		w->xml_error = 1;
		snprintf(w->msg, sizeof w->msg, "the SVG could not be checked (no parser)");
		return;
	}
	xmlCtxtUseOptions(w->ctxt, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
	do {
		size_t n = len > SVGCHECK_CHUNK ? SVGCHECK_CHUNK : len;

		xmlParseChunk(w->ctxt, p, (int)n, n == len);
		p += n;
		len -= n;
	} while (len > 0 && !w->refused && !w->xml_error);
	if (!w->refused && !w->xml_error && !w->ctxt->wellFormed) {
		w->xml_error = 1;
		snprintf(w->msg, sizeof w->msg, "the SVG is not well-formed XML");
	}
	/* libxml2 keeps the entities of a DOCTYPE in a document of its own
	 * even in SAX mode ("SAX compatibility mode"): ours to free. */
	if (w->ctxt->myDoc)
		xmlFreeDoc(w->ctxt->myDoc);
	w->ctxt->myDoc = NULL;
	xmlFreeParserCtxt(w->ctxt);
	w->ctxt = NULL;
}

int svgcheck(const struct svgcheck_limits *lim, const void *svg, size_t len, char *err,
	     size_t errlen)
{
	struct svgcheck_walk w;

	if ((long long)len > lim->max_bytes) {
		snprintf(err, errlen, "the SVG is %zu bytes: at most %lld are accepted", len,
			 lim->max_bytes);
		return SVGCHECK_TOO_LARGE;
	}
	if (len == 0) {
		snprintf(err, errlen, "the SVG is empty");
		return SVGCHECK_REFUSED;
	}
	memset(&w, 0, sizeof w);
	w.lim = lim;
	xmlInitParser();
	svgcheck_parse(&w, svg, len);
	if (w.refused || w.xml_error) {
		snprintf(err, errlen, "%s", w.msg);
		return SVGCHECK_REFUSED;
	}
	return SVGCHECK_OK;
}

void svgcheck_limits_conf(const struct conf *c, struct svgcheck_limits *lim)
{
	lim->max_bytes = c->media_svg_max_bytes;
	lim->max_elements = c->media_svg_max_elements;
	lim->max_filters = c->media_svg_max_filters;
	lim->max_text_bytes = c->media_svg_max_text_bytes;
}
