/* The image agent (seed 000): planner -> rag -> executor -> critic ->
 * genui, with error_handler; a failed review goes back to rag while
 * metadata.retryCount < [workflow.image] max_retries. Shared between
 * image.c (input, planner, rag) and image_run.c (executor, critic, genui,
 * error_handler). */
#ifndef AV_WF_IMAGE_H
#define AV_WF_IMAGE_H
#include <jansson.h>
#include "engine/graph.h"

extern const struct workflow wf_image;

/* The thread's language: Chinese when the user wrote Chinese. */
int image_zh(const json_t *state);
/* The catalogue's message id (text/msg.h) in the thread's language, formatted
 * with the arguments, as a thought_log of this node. */
void image_thought(struct step_ctx *c, const char *id, ...);
/* Records state.error = {code, message, node}; returns the next node. */
const char *image_set_error(struct step_ctx *c, const char *code, const char *message);
json_int_t image_retry_count(const json_t *state);

enum node_rc image_executor(struct step_ctx *c);
enum node_rc image_critic(struct step_ctx *c);
enum node_rc image_genui(struct step_ctx *c);
enum node_rc image_error_handler(struct step_ctx *c);

#endif
