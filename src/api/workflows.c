/* GET /api/workflows: the workflows this worker runs, each as its
 * descriptor says (engine/graph.h): nodes, edges, the input fields with
 * the user's text, its configuration section and the JSON Schema of its
 * input. */
#include "config.h"
#include <jansson.h>
#include "api/api.h"
#include "engine/graph.h"
#include "fcgi/req.h"

enum problem api_workflows(struct req *r)
{
	json_t *names = wf_names(), *list = json_array(), *v, *j;
	size_t i;

	json_array_foreach(names, i, v)
		json_array_append_new(list, wf_describe(wf_find(json_string_value(v))));
	json_decref(names);
	j = json_pack("{s:o}", "workflows", list);
	req_send_json(r, 200, "application/json", j);
	json_decref(j);
	return PB_OK;
}
