/* An adjustment of the last picture sent as data (a turn's input.adjust,
 * docs/api.md): the page's buttons and controls say what they mean (draw
 * it again, another style of the library, the style strength, the size,
 * brighter or darker) and the workflow takes it as said, with no sentence
 * to read back. Words typed by a person still go through the keyword
 * rules (image_intent.h). */
#ifndef AV_IMAGE_ADJUST_H
#define AV_IMAGE_ADJUST_H
#include <stddef.h>
#include <jansson.h>
#include "engine/graph.h"

/* Checks a turn's input.adjust (borrowed; NULL or null: none) and puts
 * the checked adjustment into user (the state's userInput) as "adjust":
 * {kind, style?, styleName? (in the thread's language), styleStrength?,
 * width?, height?, light?}. 0, or -1 with err saying what is wrong (the
 * client's mistake; code internal when the style library cannot be read). */
int image_adjust_take(struct step_ctx *c, const json_t *adjust, json_t *user, char *err, size_t n);
/* The kind of the turn's adjustment ("regenerate", "restyle", "params"),
 * or NULL when the turn sent none. Lent from state. */
const char *image_adjust_kind(const json_t *state);
/* The turn's adjustment (userInput.adjust): borrowed, or NULL. */
const json_t *image_adjust_of(const json_t *state);
/* What the adjustment asks, in the words of lang, as the user's message
 * of the conversation. The caller frees it. */
char *image_adjust_said(const json_t *adjust, const char *lang);
/* The parameters the turn's adjustment names (styleStrength, width and
 * height) set in params (borrowed), over what its words asked. */
void image_adjust_params(const json_t *state, json_t *params);
/* The light the turn's adjustment asks: "brighter", "darker", or NULL. */
const char *image_adjust_light_of(const json_t *state);

#endif
