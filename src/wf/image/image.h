/* The image agent (seed 000): planner -> rag -> executor -> critic ->
 * genui, with error_handler; a failed review goes back to rag while
 * metadata.retryCount < [workflow.image] max_retries. Shared between
 * image.c (input, planner, rag) and image_run.c (executor, critic, genui,
 * error_handler). */
#ifndef AV_WF_IMAGE_H
#define AV_WF_IMAGE_H
#include <jansson.h>
#include "engine/graph.h"
#include "text/msg.h"

extern const struct workflow wf_image;
/* Pictures one request may ask for at once (input.n). */
#define IMAGE_CANDIDATES_MAX 4
/* Its words (image_msg.c). The descriptor needs their number as a
 * constant: IMAGE_NMSGS, checked against the rows where they are written. */
#define IMAGE_NMSGS 49
extern const struct msg_def image_msgs[];
extern const size_t image_nmsgs;

/* The thread's language: Chinese when the user wrote Chinese. */
int image_zh(const json_t *state);
/* Records state.error = {code, message, node}; returns the next node. */
const char *image_set_error(struct step_ctx *c, const char *code, const char *message);
json_int_t image_retry_count(const json_t *state);

enum node_rc image_executor(struct step_ctx *c);
enum node_rc image_critic(struct step_ctx *c);
enum node_rc image_genui(struct step_ctx *c);
enum node_rc image_error_handler(struct step_ctx *c);

/* The style a request names (image_plan_style.c). The style of the
 * library the text names before any of the lexicon, for the planner's
 * facts: {id, name (the thread's language), start, end}; NULL for none.
 * New reference. */
json_t *image_named_fact(struct step_ctx *c, const char *text);
/* Sets the intent's style (a new picture or a repaint) to the style the
 * text names (named: image_named_fact's answer, borrowed) when it has
 * none. */
void image_named_keep(struct step_ctx *c, json_t *intent, const json_t *named, const char *text);
/* The retrieval's results (hits, stolen; NULL: retrieval failed) with the
 * style the text names (else, but for a repaint, the intent's style) first,
 * whatever its similarity to query, at most limit; a repaint keeps nothing
 * else. New reference, or NULL when hits was and nothing is named. */
json_t *image_named_apply(struct step_ctx *c, json_t *hits, const char *text, const char *style,
			  const char *query, int inpaint, size_t limit);

/* [workflow.image]: the keys this workflow declares (its descriptor's conf). */
struct image_conf {
	long planner_timeout_ms;
	long executor_timeout_ms;
	long critic_timeout_ms;
	long max_retries;
};
extern const struct conf_section image_conf_section;
const struct image_conf *image_conf(struct step_ctx *c);

#endif
