/* The orchestrate workflow's [workflow.orchestrate] keys (its descriptor's conf) and
 * what its nodes read them with. */
#include "config.h"
#include <stddef.h>
#include "conf/conf.h"
#include "wf/orchestrate/orch.h"

static const struct conf_key orch_conf_keys[] = {
	CONF_KEY_BOOL(struct orch_conf, "confirm_plan", confirm_plan, "on"),
	CONF_KEY_LONG(struct orch_conf, "stage_retries", stage_retries, "2", 0, 10),
};

const struct conf_section orch_conf_section = {
	.name = "workflow.orchestrate",
	.keys = orch_conf_keys,
	.nkeys = sizeof orch_conf_keys / sizeof orch_conf_keys[0],
	.size = sizeof(struct orch_conf),
};

const struct orch_conf *orch_conf(struct step_ctx *c)
{
	return step_wf_conf(c);
}
