/* The offline agents of the orchestrate workflow (see orch_rules.h): the
 * table from agent ids to their rules. What every agent reads from its
 * facts is in orch_rules_facts.c. */
#include "config.h"
#include <string.h>
#include "wf/orchestrate/orch_rules.h"
#include "wf/orchestrate/orch_rules_int.h"

static const struct { const char *id; prov_rules_fn fn; } orch_agents[] = {
	{ "coordinator", orch_rules_coordinator },
	{ "evaluator", orch_rules_evaluator },
	{ "code-reviewer", orch_rules_code_reviewer },
	{ "debugger", orch_rules_debugger },
	{ "architect", orch_rules_architect },
	{ "vision-analyzer", orch_rules_vision_analyzer },
	{ "vision-processor", orch_rules_vision_processor },
	{ "vision-annotator", orch_rules_vision_annotator },
	{ "coder", orch_rules_coder },
	{ "test-writer", orch_rules_test_writer },
	{ "documenter", orch_rules_documenter },
};

prov_rules_fn orch_rules_for(const char *agent_id)
{
	for (size_t i = 0; agent_id && i < sizeof(orch_agents) / sizeof(orch_agents[0]); i++)
		if (strcmp(orch_agents[i].id, agent_id) == 0)
			return orch_agents[i].fn;
	return NULL;
}
