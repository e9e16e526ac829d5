/* What a reader of a note catches that counting cannot, for the review
 * (note_rules_review.c), offline and bounding a model's scores alike: a
 * section off the topic, a hollow section, two lines that say the same
 * thing, and a draft that does against the person's feedback what they
 * asked it not to (longer after "太长了", no list after "列个清单"). Pure
 * functions of a draft's text and the review's facts. */
#ifndef AV_NOTE_RULES_READER_H
#define AV_NOTE_RULES_READER_H
#include <stddef.h>
#include <jansson.h>

/* 1 when text names something concrete: a number (digits, or a Chinese
 * numeral with a unit or measure word: 两勺, 十五分钟, 九点; 一 alone only
 * with a unit: 一天, not 一步一步), an ordinal step or day (第二天), an
 * enumeration of three things or more (A、B和C; a, b, c), two short list
 * items (1. 焯水 2. 炒糖色; a list of long vague lines is not), a named
 * thing (an item of a known field: 帐篷, 生抽, 猫砂盆; a
 * Latin name in Chinese text: SPF, App; a proper noun mid-sentence in
 * English; a title in 《》). Advice any topic could get has none. */
int note_rules_reader_concrete(const char *text);

/* The fields (trips, camping, cooking, study, work, beauty, fitness,
 * children, pets, gadgets, home) and kinds of note (a checklist, a
 * comparison, a recipe, a trip, a how-to) text has a word of, one bit each
 * (note_rules_reader_words.c); for a topic (topic 1), a kind is the one
 * its words ask for (装备清单: a checklist), for a section, one whose
 * words it has (准备, 带上). */
unsigned note_rules_reader_fields(const char *text, int topic);
/* The bits of the kinds of note among those fields. */
unsigned note_rules_reader_kinds(void);
/* The field of subjects (not a kind) text has the most words of, those
 * of prefer (bits) first on a tie; -1 for none. */
int note_rules_reader_main_field(const char *text, unsigned prefer);

/* Whether text has the word w (n bytes): Chinese anywhere; a Latin word
 * only at a word's start, ending there or with s, es, ed, ing, er or ers
 * (tent: tents, not content), ASCII case ignored. */
int note_rules_reader_has(const char *text, const char *w, size_t n);

/* The length in bytes of a list or step marker at the start of line (1.
 * 2、 ① - • 一、 (1)), spaces after it included; 0 for none. Ordinal steps
 * (第一步, Step 1) are not markers: they say something. */
size_t note_rules_reader_marker(const char *line);

/* Whether the n bytes at line only say where a point comes from: the
 * whole line in brackets, （出自笔记《…》，954 赞）. */
int note_rules_reader_aside(const char *line, size_t n);

/* The parts of a body a reader judges one by one, [{label, text,
 * heading}]: the headed paragraphs and the plain ones, less an opening
 * before the sections, a short closing line and lines that only say where
 * a point comes from. label: the heading, else the first words. New
 * reference. */
json_t *note_rules_reader_units(const char *body);

/* At most max characters of s, cut between words with an ellipsis (text
 * cut anywhere only when its first word is longer). The caller frees it. */
char *note_rules_reader_cut(const char *s, size_t max);

/* Each unit of body judged against facts (topic, feedback, evidence,
 * mine): [{label, offTopic, hollow, mine}]. hollow: the unit's text
 * below its heading is not concrete. offTopic: it names neither
 * the topic's subject nor the field or kind the topic is in and uses no
 * evidence about the topic, and it is hollow or mostly about another
 * field (二、路线怎么排 in a note on 露营装备); or its heading names another
 * field's subject and so does most of it (三、第一次去泉州 in a note on
 * 手机, which names 手机 once); never set when the topic has no subject
 * words to look for. mine: the unit is a paragraph the person
 * wrote (facts.mine). New reference. */
json_t *note_rules_reader_judge(const json_t *facts, const char *body);

/* The sentences of body that say again what an earlier one said (the
 * same text, or twelve characters or more and phrase_alike at
 * PHRASE_ALIKE or more), each once, at most max; lines that only say
 * where a point comes from are left out. New reference. */
json_t *note_rules_reader_repeats(const char *body, size_t max);

/* What body does against the person's feedback (facts.feedback, oldest
 * first; facts.refused: [{feedback, chars}], the drafts they refused and
 * how long each was): [{kind, feedback, chars, was}], kind "shorter" (they
 * asked for a shorter note and it is longer than the draft they refused),
 * "longer" (the other way), or "list" (they asked for a list or steps and
 * the body has none). The latest request about length decides. New
 * reference. */
json_t *note_rules_reader_against(const json_t *facts, const char *body);

#endif
