/* The image workflow's [workflow.image] keys (its descriptor's conf) and
 * what its nodes read them with. */
#include "config.h"
#include <stddef.h>
#include "conf/conf.h"
#include "wf/image/image.h"

static const struct conf_key image_conf_keys[] = {
	CONF_KEY_LONG(struct image_conf, "planner_timeout_ms", planner_timeout_ms, "10000", 100, 600000),
	CONF_KEY_LONG(struct image_conf, "executor_timeout_ms", executor_timeout_ms, "5000", 100, 600000),
	CONF_KEY_LONG(struct image_conf, "critic_timeout_ms", critic_timeout_ms, "8000", 100, 600000),
	CONF_KEY_LONG(struct image_conf, "max_retries", max_retries, "3", 0, 10),
};

const struct conf_section image_conf_section = {
	.name = "workflow.image",
	.keys = image_conf_keys,
	.nkeys = sizeof image_conf_keys / sizeof image_conf_keys[0],
	.size = sizeof(struct image_conf),
};

const struct image_conf *image_conf(struct step_ctx *c)
{
	return step_wf_conf(c);
}
