/* What a person's message asks for, read by keyword rules: a picture, a
 * web search, the time, another kind of task, or nothing but a greeting
 * or small talk. The workflows that take free text share them: the chat
 * assistant routes by them when its model is missing or unsure, the image
 * planner tells a picture request from the rest with them. They are the
 * user's routing rules (seed 004 §2, §3, §7.1), built on the rule engine
 * (text/rules_int.h): compiled on first use, kept for the life of the
 * process, released by intents_free(). Text that is not valid UTF-8
 * simply matches less; NULL matches nothing. */
#ifndef AV_WF_INTENTS_H
#define AV_WF_INTENTS_H
#include "text/rules.h"

/* Seed 004 §2: three exclusions (recalling, past, cannot) and idioms
 * (画饼, 画蛇添足, draw conclusions, back to the drawing board), then
 * eight positive rules in order. An exclusion answers not matched, with
 * its rule and confidence. */
struct rules_match intents_image(const char *text);
/* Seed 004 §3: ten patterns, any of which means a web search. */
struct rules_match intents_search(const char *text);
/* Seed 004 §7.1: the clock, the date, the weekday, a timestamp. */
struct rules_match intents_time(const char *text);
/* The message asks for something other than a picture: to write,
 * translate, explain, recommend… */
int intents_other_task(const char *text);
/* The whole message is small talk: thanks, ok, laughter, goodbye. */
int intents_small_talk(const char *text);
/* The whole message is a greeting ("你好", "hello!"). */
int intents_greeting(const char *text);
/* Nothing but spaces, punctuation, symbols and emoji (NULL too). */
int intents_blank(const char *text);

/* Releases the compiled patterns (they are compiled again if used later). */
void intents_free(void);

#endif
