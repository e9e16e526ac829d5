/* The check of SVG pictures people send (svgcheck.c), as a table: each
 * limit (bytes, elements, filter primitives, bytes of text) passes at its
 * value and refuses one past it, with words that say which; text outside
 * text elements is not counted, text in tspan, textPath and CDATA is;
 * entity declarations (a billion laughs among them) and documents that
 * are not well formed are refused; a DOCTYPE naming an external DTD
 * passes without it being read; nothing is written to stderr. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tap.h"
#include "conf/conf.h"
#include "media/svgcheck.h"
#include "util/buf.h"

#define HEAD "<svg xmlns='http://www.w3.org/2000/svg' width='100' height='100'>"

/* How a case's document is made: head, then body repeated n times, then
 * tail. */
struct svgcheck_case {
	const char *name;
	const char *head, *body, *tail;
	int n;
	int rc;
	const char *why;       /* in the reason (refusals) */
};

static const struct svgcheck_limits lim = { 4096, 10, 3, 40 };

static const struct svgcheck_case cases[] = {
	{ "a plain picture", HEAD, "<rect width='10' height='10'/>", "</svg>", 1, SVGCHECK_OK, "" },
	{ "10 elements (the limit)", HEAD, "<rect/>", "</svg>", 9, SVGCHECK_OK, "" },
	{ "11 elements", HEAD, "<rect/>", "</svg>", 10, SVGCHECK_REFUSED, "more than 10 elements" },
	{ "3 filter primitives (the limit)", HEAD "<filter id='f'>",
	  "<feGaussianBlur stdDeviation='9'/>", "</filter></svg>", 3, SVGCHECK_OK, "" },
	{ "4 filter primitives", HEAD "<filter id='f'>", "<feMorphology radius='900'/>",
	  "</filter></svg>", 4, SVGCHECK_REFUSED, "more than 3 filter primitives" },
	{ "an element named fence is no filter", HEAD, "<fence/>", "</svg>", 5, SVGCHECK_OK, "" },
	{ "40 bytes of text (the limit)", HEAD "<text>", "0123456789", "</text></svg>", 4,
	  SVGCHECK_OK, "" },
	{ "41 bytes of text", HEAD "<text>", "0123456789", "x</text></svg>", 4, SVGCHECK_REFUSED,
	  "more than 40 bytes of text" },
	{ "text in nested tspans", HEAD "<text>", "<tspan>0123456789</tspan>", "</text></svg>", 5,
	  SVGCHECK_REFUSED, "bytes of text" },
	{ "text in a textPath", HEAD "<text><textPath>", "0123456789", "</textPath></text></svg>",
	  5, SVGCHECK_REFUSED, "bytes of text" },
	{ "text as CDATA", HEAD "<text>", "<![CDATA[0123456789]]>", "</text></svg>", 5,
	  SVGCHECK_REFUSED, "bytes of text" },
	{ "character references count as their text", HEAD "<text>", "&#x41;&#66;&lt;&amp;&gt;",
	  "</text></svg>", 9, SVGCHECK_REFUSED, "bytes of text" },
	{ "text in a title is not drawn, not counted", HEAD "<title>", "0123456789",
	  "</title></svg>", 20, SVGCHECK_OK, "" },
	{ "4096 bytes (the limit)", HEAD "<!--", "x", "--></svg>", 4096 - 78, SVGCHECK_OK, "" },
	{ "4097 bytes", HEAD "<!--", "x", "--></svg>", 4097 - 78, SVGCHECK_TOO_LARGE,
	  "4097 bytes: at most 4096" },
	{ "an entity", "<!DOCTYPE svg [<!ENTITY e 'words'>]>" HEAD "<text>&e;", "", "</text></svg>",
	  1, SVGCHECK_REFUSED, "entities" },
	{ "a billion laughs", "<!DOCTYPE svg [<!ENTITY a 'aaaaaaaaaa'>"
	  "<!ENTITY b '&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;'><!ENTITY c '&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;'>"
	  "<!ENTITY d '&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;'>]>" HEAD "<text>", "&d;", "</text></svg>", 1,
	  SVGCHECK_REFUSED, "entities" },
	{ "a parameter entity", "<!DOCTYPE svg [<!ENTITY % p 'x'>]>" HEAD, "", "</svg>", 1,
	  SVGCHECK_REFUSED, "entities" },
	{ "a DOCTYPE naming the SVG 1.1 DTD",
	  "<?xml version='1.0'?><!DOCTYPE svg PUBLIC '-//W3C//DTD SVG 1.1//EN' "
	  "'http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd'>" HEAD, "<rect/>", "</svg>", 1,
	  SVGCHECK_OK, "" },
	{ "an undeclared entity", HEAD "<text>", "&nothing;", "</text></svg>", 1, SVGCHECK_REFUSED,
	  "well-formed" },
	{ "cut short", HEAD, "<rect", "", 1, SVGCHECK_REFUSED, "well-formed" },
	{ "unclosed elements", HEAD, "<g>", "</svg>", 2, SVGCHECK_REFUSED, "well-formed" },
	{ "not XML", "", "this is not a picture", "", 1, SVGCHECK_REFUSED, "well-formed" },
	{ "no bytes", "", "", "", 0, SVGCHECK_REFUSED, "empty" },
};

static void make(const struct svgcheck_case *k, struct buf *b)
{
	buf_init(b, 1 << 20);
	buf_adds(b, k->head);
	for (int i = 0; i < k->n; i++)
		buf_adds(b, k->body);
	buf_adds(b, k->tail);
}

static void test_cases(void)
{
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const struct svgcheck_case *k = &cases[i];
		char err[256] = "";
		struct buf b;
		int rc;

		make(k, &b);
		rc = svgcheck(&lim, b.data ? b.data : "", b.len, err, sizeof err);
		is_int(rc, k->rc, "%s (%zu bytes): %s", k->name, b.len, rc ? err : "accepted");
		if (k->rc != SVGCHECK_OK)
			ok(strstr(err, k->why) != NULL, "  ... the reason says \"%s\"", k->why);
		buf_free(&b);
	}
}

/* Deep nesting: 256 levels pass (the svg element and 255 groups), one
 * more is refused. */
static void test_deep(void)
{
	struct svgcheck_limits roomy = { 1 << 20, 100000, 16, 16384 };
	for (int groups = 255; groups <= 256; groups++) {
		char err[256] = "";
		struct buf b;
		int rc;

		buf_init(&b, 1 << 20);
		buf_adds(&b, HEAD);
		for (int i = 0; i < groups; i++)
			buf_adds(&b, "<g>");
		for (int i = 0; i < groups; i++)
			buf_adds(&b, "</g>");
		buf_adds(&b, "</svg>");
		rc = svgcheck(&roomy, b.data, b.len, err, sizeof err);
		if (groups == 255)
			is_int(rc, SVGCHECK_OK, "255 nested groups: accepted (%s)", err);
		else
			ok(rc == SVGCHECK_REFUSED && strstr(err, "more than 256 deep"),
			   "256 nested groups: refused (%s)", err);
		buf_free(&b);
	}
}

static void test_conf(void)
{
	struct conf c;
	struct svgcheck_limits l;

	conf_init(&c);
	svgcheck_limits_conf(&c, &l);
	ok(l.max_bytes == c.media_svg_max_bytes && l.max_elements == c.media_svg_max_elements &&
	   l.max_filters == c.media_svg_max_filters && l.max_text_bytes == c.media_svg_max_text_bytes,
	   "the limits are [media]'s (%lld bytes, %ld elements, %ld filters, %lld bytes of text)",
	   l.max_bytes, l.max_elements, l.max_filters, l.max_text_bytes);
	conf_free(&c);
}

int main(void)
{
	FILE *errf = tmpfile();
	int saved = dup(2);
	long noise;

	if (errf == NULL || saved < 0)
		tap_bail("tmpfile");
	fflush(stderr);
	dup2(fileno(errf), 2);
	test_cases();
	test_deep();
	fflush(stderr);
	noise = ftell(errf);
	dup2(saved, 2);
	close(saved);
	is_int(noise, 0, "nothing was written to stderr");
	fclose(errf);
	test_conf();
	return tap_done();
}
