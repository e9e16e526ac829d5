/* The table of workflows this worker runs. The product's workflows are
 * listed here; test binaries add their own with wf_register(). */
#include "config.h"
#include <string.h>
#include "engine/graph.h"

#define WF_MAX 16

static const struct workflow *wf_table[WF_MAX];
static size_t wf_count;

void wf_register(const struct workflow *wf)
{
	if (wf_count < WF_MAX && wf_find(wf->name) == NULL)
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
