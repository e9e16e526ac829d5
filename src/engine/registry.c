/* The table of workflows this worker runs. The product's workflows are
 * listed here; test binaries add their own with wf_register(). */
#include "config.h"
#include <string.h>
#include "conf/conf.h"
#include "engine/graph.h"
#include "text/msg.h"
#include "util/log.h"

#define WF_MAX 16

static const struct workflow *wf_table[WF_MAX];
static size_t wf_count;

void wf_register(const struct workflow *wf)
{
	if (wf_count >= WF_MAX || wf_find(wf->name) != NULL)
		return;
	/* Its keys are known before any configuration is read. */
	if (wf->conf && conf_section_add(wf->conf) < 0) {
		log_error("workflow %s not registered: its section [%s] is taken", wf->name,
			  wf->conf->name);
		return;
	}
	/* Its words join the catalogue; a workflow whose ids another owner
	 * already has is not run, rather than run saying another's words. */
	if (wf->nmsgs > 0 && msg_catalogue_add(wf->msgs, wf->nmsgs) != 0) {
		log_error("workflow %s not registered: its messages repeat an id the catalogue has",
			  wf->name);
		return;
	}
	wf_table[wf_count++] = wf;
}

const struct workflow *wf_find(const char *name)
{
	for (size_t i = 0; name && i < wf_count; i++)
		if (strcmp(wf_table[i]->name, name) == 0)
			return wf_table[i];
	return NULL;
}

const struct wf_node *wf_node(const struct workflow *wf, const char *name)
{
	for (size_t i = 0; name && i < wf->nnodes; i++)
		if (strcmp(wf->nodes[i].name, name) == 0)
			return &wf->nodes[i];
	return NULL;
}

json_t *wf_names(void)
{
	json_t *a = json_array();

	for (size_t i = 0; i < wf_count; i++)
		json_array_append_new(a, json_string(wf_table[i]->name));
	return a;
}

int wf_edge_ok(const struct workflow *wf, const char *from, const char *to)
{
	if (wf->edges == NULL)
		return 1;
	for (size_t i = 0; from && to && i < wf->nedges; i++)
		if (strcmp(wf->edges[i].from, from) == 0 && strcmp(wf->edges[i].to, to) == 0)
			return 1;
	return 0;
}

/* A JSON text of the descriptor as a value: a text that does not parse is
 * left out (t_workflows checks that every one parses). */
static void wf_describe_json(json_t *j, const char *key, const char *text)
{
	json_t *v = text ? json_loads(text, 0, NULL) : NULL;

	if (v)
		json_object_set_new(j, key, v);
}

json_t *wf_describe(const struct workflow *wf)
{
	json_t *nodes = json_array(), *edges = json_array(), *fields = json_array(), *j;

	for (size_t i = 0; i < wf->nnodes; i++)
		json_array_append_new(nodes, json_string(wf->nodes[i].name));
	for (size_t i = 0; wf->edges && i < wf->nedges; i++)
		json_array_append_new(edges, json_pack("[s, s]", wf->edges[i].from, wf->edges[i].to));
	for (const char *const *f = wf->text_fields; f && *f; f++)
		json_array_append_new(fields, json_string(*f));
	j = json_pack("{s:s, s:s, s:o, s:o, s:o, s:b}", "name", wf->name, "start", wf->start, "nodes",
		      nodes, "edges", edges, "textFields", fields, "turns", wf->turn != NULL);
	if (wf->conf)
		json_object_set_new(j, "configSection", json_string(wf->conf->name));
	wf_describe_json(j, "inputSchema", wf->input_schema);
	wf_describe_json(j, "stateSchema", wf->state_schema);
	return j;
}
