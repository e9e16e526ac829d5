/* The agent registry (etc/agents.json) and the plan templates
 * (etc/templates.json) of the orchestrate workflow, as knowledge bases on
 * the worker's shelf: each entry is checked at load, and a broken file is
 * reported with the file and the entry at fault. Until the tool module
 * (orch_tools.h) is linked, the names an agent may list are kept here. */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include "app.h"
#include "conf/conf.h"
#include "kb/kb.h"
#include "kb/shelf.h"
#include "wf/orchestrate/orch.h"
#include "wf/orchestrate/orch_tools.h"

static const char *const orch_layers[] = { "meta", "specialist", "vision", "worker", NULL };

static const struct kb_field orch_agent_fields[] = {
	{ "name", 3, KB_SHOW | KB_REQUIRED },
	{ "layer", 1, KB_SHOW | KB_REQUIRED },
	{ "description", 1, KB_SHOW | KB_REQUIRED },
	{ "systemPrompt", 0, KB_REQUIRED },
	{ NULL, 0, 0 },
};

static const struct kb_field orch_template_fields[] = {
	{ "name", 3, KB_SHOW | KB_REQUIRED },
	{ "description", 1, KB_SHOW | KB_REQUIRED },
	{ NULL, 0, 0 },
};

static int orch_in(const char *const *list, const char *s)
{
	for (size_t i = 0; s && list[i]; i++)
		if (strcmp(list[i], s) == 0)
			return 1;
	return 0;
}

int orch_agents_tool_known(const char *name)
{
	return name && orch_tool_known(name);
}

static int orch_agent_check(const json_t *a, char *why, size_t n)
{
	const json_t *tools = json_object_get(a, "tools"), *t, *mi = json_object_get(a, "maxIterations");
	const json_t *mo = json_object_get(a, "modelOverride");
	size_t i;

	if (!orch_in(orch_layers, json_string_value(json_object_get(a, "layer"))))
		return snprintf(why, n, "\"layer\" must be meta, specialist, vision or worker"), -1;
	if (!json_is_array(tools))
		return snprintf(why, n, "\"tools\" must be an array of tool names"), -1;
	json_array_foreach(tools, i, t)
		if (!orch_agents_tool_known(json_string_value(t)))
			return snprintf(why, n, "unknown tool \"%s\"", json_string_value(t) ?: "?"), -1;
	if (!json_is_integer(mi) || json_integer_value(mi) < 1 || json_integer_value(mi) > 50)
		return snprintf(why, n, "\"maxIterations\" must be an integer from 1 to 50"), -1;
	if (!json_is_boolean(json_object_get(a, "canSpawnSubagents")))
		return snprintf(why, n, "\"canSpawnSubagents\" must be true or false"), -1;
	if (mo && (!json_is_object(mo) || !json_is_string(json_object_get(mo, "provider")) ||
		   !json_is_string(json_object_get(mo, "model"))))
		return snprintf(why, n, "\"modelOverride\" must be {\"provider\", \"model\"}"), -1;
	return 0;
}

int orch_agents_check(const json_t *docs, char *err, size_t errlen)
{
	size_t i, k;
	json_t *d;
	char why[200];

	json_array_foreach(docs, i, d) {
		const char *id = json_string_value(json_object_get(d, "id")) ?: "?";

		for (k = 0; k < i; k++)
			if (strcmp(json_string_value(json_object_get(json_array_get(docs, k), "id")) ?: "",
				   id) == 0)
				return snprintf(err, errlen, "agent %zu (%s): duplicate id", i + 1, id), -1;
		if (orch_agent_check(d, why, sizeof why) < 0)
			return snprintf(err, errlen, "agent %zu (%s): %s", i + 1, id, why), -1;
	}
	return 0;
}

/* A template's plan is checked for its shape here, and against the
 * registry when it is used (orch_plan_check with the agents known). */
static int orch_any_agent(void *ctx, const char *agent)
{
	return agent && *agent;
}

int orch_templates_check(const json_t *docs, char *err, size_t errlen)
{
	size_t i;
	json_t *d;

	json_array_foreach(docs, i, d) {
		const char *id = json_string_value(json_object_get(d, "id")) ?: "?";
		const char *es = json_string_value(json_object_get(d, "errorStrategy"));
		json_t *errors = json_array();
		size_t n = orch_plan_check(d, orch_any_agent, NULL, errors);

		if (n) {
			snprintf(err, errlen, "template %zu (%s): %s", i + 1, id,
				 json_string_value(json_object_get(json_array_get(errors, 0), "message")));
			json_decref(errors);
			return -1;
		}
		json_decref(errors);
		if (es && strcmp(es, "retry") && strcmp(es, "skip") && strcmp(es, "abort"))
			return snprintf(err, errlen, "template %zu (%s): \"errorStrategy\" must be retry, "
					"skip or abort", i + 1, id), -1;
	}
	return 0;
}

static const char *orch_agents_path(const struct conf *c)
{
	return c->kb_agents;
}

static const char *orch_templates_path(const struct conf *c)
{
	return c->kb_templates;
}

const struct kb_def orch_agents_def = {
	.name = "agent registry",
	.file = "agents.json",
	.path = orch_agents_path,
	.fields = orch_agent_fields,
	.check = orch_agents_check,
};

const struct kb_def orch_templates_def = {
	.name = "orchestration templates",
	.file = "templates.json",
	.path = orch_templates_path,
	.fields = orch_template_fields,
	.check = orch_templates_check,
};

/* Every modelOverride names a provider section of the configuration. */
static int orch_agents_providers(struct app *app, struct kb *kb, char *err, size_t errlen)
{
	size_t i;
	json_t *d;

	json_array_foreach(kb_items(kb), i, d) {
		const char *pv = json_string_value(json_object_get(json_object_get(d, "modelOverride"),
								   "provider"));

		if (pv && conf_provider_named(&app->conf, pv) == NULL)
			return snprintf(err, errlen, "%s: agent %zu (%s): modelOverride.provider \"%s\" "
					"is not a [provider.%s] section of the configuration",
					orch_agents_def.file, i + 1,
					json_string_value(json_object_get(d, "id")) ?: "?", pv, pv), -1;
	}
	return 0;
}

struct kb *orch_agents(struct app *app, char *err, size_t errlen)
{
	struct kb *kb = kb_shelf_get(app, &orch_agents_def, err, errlen);

	return kb && orch_agents_providers(app, kb, err, errlen) == 0 ? kb : NULL;
}

struct kb *orch_templates(struct app *app, char *err, size_t errlen)
{
	return kb_shelf_get(app, &orch_templates_def, err, errlen);
}
