/* Loading a knowledge base: reading and checking the file, so a broken
 * library is reported once with its file and document instead of giving
 * odd answers later, and building the inverted index that search.c reads. */
#include "config.h"
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sodium.h>
#include "json/dump.h"
#include "kb/kb_int.h"
#include "util/buf.h"
#include "util/xmalloc.h"

#define KB_TEXT_MAX 65536    /* longest text of one document for embedding */

/* -- the term table -------------------------------------------------------- */

static uint64_t kb_hash(const char *s, size_t n)
{
	uint64_t h = 14695981039346656037ULL;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
	return h;
}

size_t kb_term_find(const struct kb *kb, const char *text, size_t n)
{
	if (kb->nslots == 0)
		return KB_NONE;
	for (size_t i = kb_hash(text, n) & (kb->nslots - 1);; i = (i + 1) & (kb->nslots - 1)) {
		size_t t = kb->slots[i];

		if (t == 0)
			return KB_NONE;
		if (strncmp(kb->terms[t - 1].text, text, n) == 0 && kb->terms[t - 1].text[n] == '\0')
			return t - 1;
	}
}

static void kb_slots_put(struct kb *kb, size_t term)
{
	const char *s = kb->terms[term].text;
	size_t i = kb_hash(s, strlen(s)) & (kb->nslots - 1);

	while (kb->slots[i] != 0)
		i = (i + 1) & (kb->nslots - 1);
	kb->slots[i] = term + 1;
}

/* Doubles the table and puts every term back. */
static void kb_slots_rehash(struct kb *kb)
{
	free(kb->slots);
	kb->nslots = kb->nslots ? kb->nslots * 2 : 256;
	kb->slots = xcalloc(kb->nslots, sizeof *kb->slots);
	for (size_t t = 0; t < kb->nterms; t++)
		kb_slots_put(kb, t);
}

static size_t kb_term_add(struct kb *kb, const char *text, size_t n)
{
	size_t t = kb_term_find(kb, text, n);

	if (t != KB_NONE)
		return t;
	if (kb->nterms == kb->aterms) {
		kb->aterms = kb->aterms ? kb->aterms * 2 : 256;
		kb->terms = xrealloc(kb->terms, kb->aterms * sizeof *kb->terms);
	}
	t = kb->nterms++;
	memset(&kb->terms[t], 0, sizeof kb->terms[t]);
	kb->terms[t].text = xstrndup(text, n);
	/* At most half full, so probes stay short. */
	if (kb->nterms * 2 > kb->nslots)
		kb_slots_rehash(kb);
	else
		kb_slots_put(kb, t);
	return t;
}

/* -- indexing -------------------------------------------------------------- */

struct kb_adding {
	struct kb *kb;
	size_t doc;
	int weight;
};

static void kb_index_token(void *ctx, const char *tok, size_t n)
{
	struct kb_adding *a = ctx;
	size_t ti = kb_term_add(a->kb, tok, n);   /* may move the term array */
	struct kb_term *t = &a->kb->terms[ti];

	if (t->npost == 0 || t->post[t->npost - 1].doc != a->doc) {
		if (t->npost == t->apost) {
			t->apost = t->apost ? t->apost * 2 : 4;
			t->post = xrealloc(t->post, t->apost * sizeof *t->post);
		}
		t->post[t->npost].doc = a->doc;
		t->post[t->npost++].tf = 0;
	}
	t->post[t->npost - 1].tf += a->weight;
	a->kb->dl[a->doc] += a->weight;
}

static void kb_index_value(struct kb_adding *a, const json_t *v)
{
	size_t i;
	json_t *e;

	if (json_is_string(v)) {
		kb_tokenize(json_string_value(v), json_string_length(v), kb_index_token, a);
		return;
	}
	json_array_foreach(v, i, e)
		kb_tokenize(json_string_value(e), json_string_length(e), kb_index_token, a);
}

static void kb_index(struct kb *kb)
{
	double total = 0;

	for (size_t d = 0; d < kb->ndocs; d++) {
		json_t *doc = json_array_get(kb->docs, d);

		for (const struct kb_field *f = kb->fields; f->name; f++) {
			struct kb_adding a = { kb, d, f->weight };
			json_t *v = json_object_get(doc, f->name);

			if (f->weight > 0 && v)
				kb_index_value(&a, v);
		}
		total += kb->dl[d];
	}
	kb->avgdl = kb->ndocs ? total / (double)kb->ndocs : 0;
	for (const struct kb_field *f = kb->fields; f->name; f++)
		kb->wsum += f->weight > 0 ? f->weight : 0;
}

/* -- checking -------------------------------------------------------------- */

/* A field's value: a string or an array of strings; required ones not
 * empty. 0, or -1 with why. */
static int kb_check_field(const json_t *v, const struct kb_field *f, char *why, size_t whylen)
{
	int req = (f->flags & KB_REQUIRED) != 0;
	size_t i;
	json_t *e;

	if (v == NULL) {
		if (req)
			snprintf(why, whylen, "no \"%s\"", f->name);
		return req ? -1 : 0;
	}
	if (json_is_string(v)) {
		if (req && json_string_length(v) == 0)
			goto empty;
		return 0;
	}
	if (!json_is_array(v))
		goto type;
	if (req && json_array_size(v) == 0)
		goto empty;
	json_array_foreach(v, i, e) {
		if (!json_is_string(e))
			goto type;
		if (req && json_string_length(e) == 0)
			goto empty;
	}
	return 0;
type:
	snprintf(why, whylen, "\"%s\" must be a string or an array of strings", f->name);
	return -1;
empty:
	snprintf(why, whylen, "\"%s\" is empty", f->name);
	return -1;
}

static int kb_check_doc(struct kb *kb, size_t d, char *err, size_t errlen)
{
	json_t *doc = json_array_get(kb->docs, d);
	const char *id = json_string_value(json_object_get(doc, "id"));
	char why[160];

	if (!json_is_object(doc)) {
		snprintf(err, errlen, "%s: document %zu: not an object", kb->name, d + 1);
		return -1;
	}
	if (id == NULL || *id == '\0') {
		snprintf(err, errlen, "%s: document %zu: no \"id\" string", kb->name, d + 1);
		return -1;
	}
	for (size_t i = 0; i < d; i++) {
		if (strcmp(kb->ids[i], id) == 0) {
			snprintf(err, errlen, "%s: document %zu: id \"%s\" is also document %zu's",
				 kb->name, d + 1, id, i + 1);
			return -1;
		}
	}
	kb->ids[d] = id;
	for (const struct kb_field *f = kb->fields; f->name; f++) {
		if (kb_check_field(json_object_get(doc, f->name), f, why, sizeof why) < 0) {
			snprintf(err, errlen, "%s: document %zu (%s): %s", kb->name, d + 1, id, why);
			return -1;
		}
	}
	return 0;
}

/* -- building -------------------------------------------------------------- */

static void kb_set_digest(struct kb *kb, const void *data, size_t len)
{
	unsigned char h[16];

	crypto_generichash(h, sizeof h, data, len, NULL, 0);
	sodium_bin2hex(kb->digest, sizeof kb->digest, h, sizeof h);
}

static struct kb_field *kb_fields_copy(const struct kb_field *fields)
{
	size_t n = 0;
	struct kb_field *out;

	while (fields && fields[n].name)
		n++;
	out = xcalloc(n + 1, sizeof *out);
	for (size_t i = 0; i < n; i++) {
		out[i] = fields[i];
		out[i].name = xstrdup(fields[i].name);
	}
	return out;
}

struct kb *kb_from_json(json_t *docs, const struct kb_field *fields, const char *name,
			char *err, size_t errlen)
{
	struct kb *kb;
	char *dump;

	if (!json_is_array(docs)) {
		snprintf(err, errlen, "%s: not a JSON array of documents", name);
		return NULL;
	}
	kb = xcalloc(1, sizeof *kb);
	kb->name = xstrdup(name);
	kb->docs = json_incref(docs);
	kb->fields = kb_fields_copy(fields);
	kb->ndocs = json_array_size(docs);
	kb->ids = xcalloc(kb->ndocs + 1, sizeof *kb->ids);
	kb->dl = xcalloc(kb->ndocs + 1, sizeof *kb->dl);
	for (size_t d = 0; d < kb->ndocs; d++) {
		if (kb_check_doc(kb, d, err, errlen) < 0) {
			kb_free(kb);
			return NULL;
		}
	}
	kb_index(kb);
	dump = jtext(docs, JSON_COMPACT | JSON_SORT_KEYS);
	kb_set_digest(kb, dump ? dump : "", dump ? strlen(dump) : 0);
	free(dump);
	return kb;
}

/* Reads the whole file under KB_FILE_MAX. 0, or -1 with err. */
static int kb_read_file(const char *path, struct buf *b, char *err, size_t errlen)
{
	FILE *fp = fopen(path, "rb");
	char chunk[16384];
	size_t n;
	int rc = 0;

	if (fp == NULL) {
		snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
		return -1;
	}
	while (rc == 0 && (n = fread(chunk, 1, sizeof chunk, fp)) > 0) {
		if (buf_add(b, chunk, n) < 0) {
			snprintf(err, errlen, "%s: larger than %d bytes", path, KB_FILE_MAX);
			rc = -1;
		}
	}
	if (rc == 0 && ferror(fp)) {
		snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
		rc = -1;
	}
	fclose(fp);
	return rc;
}

struct kb *kb_load(const char *path, const struct kb_field *fields, char *err, size_t errlen)
{
	struct buf b;
	json_error_t jerr;
	json_t *docs = NULL;
	struct kb *kb = NULL;

	buf_init(&b, KB_FILE_MAX);
	if (kb_read_file(path, &b, err, errlen) == 0) {
		/* new reference */
		docs = json_loadb(b.data ? b.data : "", b.len, JSON_REJECT_DUPLICATES, &jerr);
		if (docs == NULL)
			snprintf(err, errlen, "%s:%d:%d: %s", path, jerr.line, jerr.column, jerr.text);
	}
	if (docs)
		kb = kb_from_json(docs, fields, path, err, errlen);
	if (kb)
		kb_set_digest(kb, b.data ? b.data : "", b.len);
	json_decref(docs);
	buf_free(&b);
	return kb;
}

void kb_free(struct kb *kb)
{
	if (kb == NULL)
		return;
	for (size_t t = 0; t < kb->nterms; t++) {
		free(kb->terms[t].text);
		free(kb->terms[t].post);
	}
	for (struct kb_field *f = kb->fields; f && f->name; f++)
		free((char *)f->name);
	free(kb->fields);
	free(kb->terms);
	free(kb->slots);
	free(kb->ids);
	free(kb->dl);
	json_decref(kb->docs);
	json_decref(kb->vectors);
	free(kb->vectors_tag);
	free(kb->name);
	free(kb);
}

/* -- accessors ------------------------------------------------------------- */

json_t *kb_items(const struct kb *kb)
{
	return kb->docs;
}

size_t kb_count(const struct kb *kb)
{
	return kb->ndocs;
}

json_t *kb_find(const struct kb *kb, const char *id)
{
	for (size_t d = 0; id && d < kb->ndocs; d++)
		if (strcmp(kb->ids[d], id) == 0)
			return json_array_get(kb->docs, d);
	return NULL;
}

const char *kb_digest(const struct kb *kb)
{
	return kb->digest;
}

const char *kb_name(const struct kb *kb)
{
	return kb->name;
}

json_t *kb_result_new(const struct kb *kb, size_t doc, double similarity)
{
	json_t *d = json_array_get(kb->docs, doc), *r = json_object();

	json_object_set_new(r, "id", json_string(kb->ids[doc]));
	for (const struct kb_field *f = kb->fields; f->name; f++) {
		json_t *v = json_object_get(d, f->name);   /* borrowed */

		if ((f->flags & KB_SHOW) && v)
			json_object_set(r, f->name, v);
	}
	json_object_set_new(r, "similarity", json_real(similarity));
	return r;
}

/* -- text for embeddings --------------------------------------------------- */

static void kb_text_value(struct buf *b, const json_t *v)
{
	size_t i;
	json_t *e;

	if (json_is_string(v)) {
		buf_add(b, json_string_value(v), json_string_length(v));
		return;
	}
	json_array_foreach(v, i, e) {
		if (i > 0)
			buf_adds(b, ", ");
		buf_add(b, json_string_value(e), json_string_length(e));
	}
}

json_t *kb_embed_texts(const struct kb *kb)
{
	json_t *out = json_array();
	struct buf b;

	buf_init(&b, KB_TEXT_MAX);
	for (size_t d = 0; d < kb->ndocs; d++) {
		json_t *doc = json_array_get(kb->docs, d);

		buf_reset(&b);
		for (const struct kb_field *f = kb->fields; f->name; f++) {
			json_t *v = json_object_get(doc, f->name);

			if (f->weight <= 0 || v == NULL)
				continue;
			if (b.len > 0)
				buf_adds(&b, ". ");
			kb_text_value(&b, v);
		}
		json_array_append_new(out, json_stringn(b.data ? b.data : "", b.len));
	}
	buf_free(&b);
	return out;
}
