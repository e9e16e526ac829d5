/* What an offline picture holds, read back from its SVG for the critic
 * (image_crit.h): the glyphs placed (<g class="av-glyph" data-cp="1F431">
 * with <title>🐱 NAME</title>), the style filter applied
 * (filter="url(#av-style-NAME)") and the background (data-background).
 * A SAX walk with libxml2's push parser as media/svgcheck.c does it: no
 * document is built, nothing outside the bytes is read, entities are not
 * expanded, errors go to a handler that keeps quiet. */
#include "config.h"
#include <string.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include "wf/image/image_crit.h"

#define IMAGE_SVG_CHUNK 65536
#define IMAGE_SVG_TITLE_MAX 256

struct image_svg_walk {
	xmlParserCtxtPtr ctxt;
	json_t *glyphs;          /* [{cp, glyph, name}] */
	json_t *out;
	int glyph_depth;         /* depth of the open av-glyph group, 0: none */
	int depth;
	int in_title;
	char title[IMAGE_SVG_TITLE_MAX];
	size_t title_len;
	char cp[64];
};

/* The value of attribute name among a SAX2 element's attributes (5 per
 * attribute: localname, prefix, URI, value start, value end), into out. 1
 * when it is there. */
static int image_svg_attr(int nattrs, const xmlChar **attrs, const char *name, char *out,
			  size_t outlen)
{
	for (int i = 0; i < nattrs; i++) {
		const xmlChar **a = attrs + 5 * i;
		size_t n = (size_t)(a[4] - a[3]);

		if (strcmp((const char *)a[0], name) != 0)
			continue;
		if (n >= outlen)
			n = outlen - 1;
		memcpy(out, a[3], n);
		out[n] = '\0';
		return 1;
	}
	return 0;
}

/* A class attribute that holds the class word. */
static int image_svg_has_class(const char *classes, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = strstr(classes, word); p; p = strstr(p + 1, word))
		if ((p == classes || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' '))
			return 1;
	return 0;
}

/* filter="url(#av-style-NAME)": the NAME. */
static void image_svg_filter(struct image_svg_walk *w, const char *filter)
{
	static const char lead[] = "url(#av-style-";
	const char *p = strstr(filter, lead), *e;

	if (p == NULL || json_object_get(w->out, "style"))
		return;
	p += sizeof lead - 1;
	e = strchr(p, ')');
	if (e && e > p)
		json_object_set_new(w->out, "style", json_stringn(p, (size_t)(e - p)));
}

static void image_svg_start(void *ctx, const xmlChar *localname, const xmlChar *prefix,
			    const xmlChar *uri, int nns, const xmlChar **ns, int nattrs,
			    int ndefaulted, const xmlChar **attrs)
{
	struct image_svg_walk *w = ctx;
	const char *name = (const char *)localname;
	char v[256];

	w->depth++;
	if (image_svg_attr(nattrs, attrs, "filter", v, sizeof v))
		image_svg_filter(w, v);
	if (image_svg_attr(nattrs, attrs, "data-background", v, sizeof v) &&
	    !json_object_get(w->out, "background"))
		json_object_set_new(w->out, "background", json_string(v));
	if (w->glyph_depth == 0 && strcmp(name, "g") == 0 &&
	    image_svg_attr(nattrs, attrs, "class", v, sizeof v) && image_svg_has_class(v, "av-glyph")) {
		w->glyph_depth = w->depth;
		w->title_len = 0;
		w->title[0] = '\0';
		if (!image_svg_attr(nattrs, attrs, "data-cp", w->cp, sizeof w->cp))
			w->cp[0] = '\0';
	} else if (w->glyph_depth && strcmp(name, "title") == 0) {
		w->in_title = 1;
	}
}

/* The glyph of a title: its text up to the first space. */
static void image_svg_glyph_done(struct image_svg_walk *w)
{
	const char *sp = strchr(w->title, ' ');
	size_t gl = sp ? (size_t)(sp - w->title) : w->title_len;

	if (json_array_size(w->glyphs) >= IMAGE_CRIT_GLYPHS_MAX)
		return;
	json_array_append_new(w->glyphs, json_pack("{s:s, s:s%, s:s}", "cp", w->cp, "glyph", w->title, gl,
						   "name", sp ? sp + 1 : ""));
}

static void image_svg_end(void *ctx, const xmlChar *localname, const xmlChar *prefix,
			  const xmlChar *uri)
{
	struct image_svg_walk *w = ctx;

	if (w->in_title && strcmp((const char *)localname, "title") == 0)
		w->in_title = 0;
	if (w->glyph_depth == w->depth) {
		image_svg_glyph_done(w);
		w->glyph_depth = 0;
	}
	w->depth--;
}

static void image_svg_chars(void *ctx, const xmlChar *ch, int len)
{
	struct image_svg_walk *w = ctx;
	size_t n = (size_t)len;

	if (!w->in_title)
		return;
	if (n > sizeof w->title - 1 - w->title_len)
		n = sizeof w->title - 1 - w->title_len;
	memcpy(w->title + w->title_len, ch, n);
	w->title_len += n;
	w->title[w->title_len] = '\0';
}

static void image_svg_entity(void *ctx, const xmlChar *name, int type, const xmlChar *public_id,
			     const xmlChar *system_id, xmlChar *content)
{
	xmlStopParser(((struct image_svg_walk *)ctx)->ctxt);
}

static void image_svg_error(void *ctx, xmlErrorPtr e)
{
}

static void image_svg_handler(xmlSAXHandler *h)
{
	memset(h, 0, sizeof *h);
	h->initialized = XML_SAX2_MAGIC;
	h->startElementNs = image_svg_start;
	h->endElementNs = image_svg_end;
	h->characters = image_svg_chars;
	h->cdataBlock = image_svg_chars;
	h->entityDecl = image_svg_entity;
	h->serror = image_svg_error;
}

json_t *image_svg_composition(const void *svg, size_t len)
{
	struct image_svg_walk w;
	xmlSAXHandler h;
	const char *p = svg;
	int ok;

	if (svg == NULL || len == 0 || len > IMAGE_CRIT_SVG_MAX)
		return NULL;
	memset(&w, 0, sizeof w);
	w.out = json_object();
	w.glyphs = json_array();
	xmlInitParser();
	image_svg_handler(&h);
	w.ctxt = xmlCreatePushParserCtxt(&h, &w, NULL, 0, NULL);
	if (w.ctxt == NULL) {
		json_decref(w.out);
		json_decref(w.glyphs);
		return NULL;
	}
	xmlCtxtUseOptions(w.ctxt, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
	do {
		size_t n = len > IMAGE_SVG_CHUNK ? IMAGE_SVG_CHUNK : len;

		xmlParseChunk(w.ctxt, p, (int)n, n == len);
		p += n;
		len -= n;
	} while (len > 0 && !w.ctxt->disableSAX);
	ok = w.ctxt->wellFormed && !w.ctxt->disableSAX;
	if (w.ctxt->myDoc)
		xmlFreeDoc(w.ctxt->myDoc);
	w.ctxt->myDoc = NULL;
	xmlFreeParserCtxt(w.ctxt);
	json_object_set_new(w.out, "glyphs", w.glyphs);
	if (!ok) {
		json_decref(w.out);
		return NULL;
	}
	return w.out;
}
