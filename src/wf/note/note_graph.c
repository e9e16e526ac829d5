/* The note workflow's graph: its input, checked and turned into the
 * initial state (seed 001 §7), and its node table, the one place that
 * names every agent. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/xmalloc.h"
#include "wf/note/note.h"

#define NOTE_FIELD_MAX 200       /* audience, tone */

/* ---- input ---- */

static int note_opt_string(const json_t *input, const char *key, json_t *state, char *err, size_t n)
{
	json_t *v = json_object_get(input, key);

	if (v == NULL || json_is_null(v))
		return 0;
	if (!json_is_string(v) || json_string_length(v) > NOTE_FIELD_MAX)
		return snprintf(err, n, "%s must be text of at most %d bytes", key, NOTE_FIELD_MAX), -1;
	if (json_string_length(v) > 0)
		json_object_set(state, key, v);
	return 0;
}

static int note_take_topic(const json_t *input, json_t *state, char *err, size_t n)
{
	json_t *v = json_object_get(input, "topic");
	const char *t;

	if (v == NULL || json_is_null(v))
		v = json_object_get(input, "text");
	if (v != NULL && !json_is_null(v) && !json_is_string(v))
		return snprintf(err, n, "topic must be text"), -1;
	t = json_string_value(v);
	while (t && (*t == ' ' || *t == '\n' || *t == '\t' || *t == '\r'))
		t++;
	if (t == NULL || *t == '\0')
		return snprintf(err, n, "send what the note is about (topic)"), -1;
	if (strlen(t) > NOTE_TOPIC_MAX)
		return snprintf(err, n, "topic is longer than %d bytes", NOTE_TOPIC_MAX), -1;
	json_object_set_new(state, "topic", json_string(t));
	json_object_set_new(state, "request", json_string(t));
	note_push_message(state, "user", t);
	return 0;
}

static int note_take_options(const json_t *input, json_t *state, char *err, size_t n)
{
	json_t *v = json_object_get(input, "layoutPreference");
	json_t *it = json_object_get(input, "maxIterations"), *router = json_object_get(input, "modelRouter");
	const char *lp = json_string_value(v);

	if (v && !json_is_null(v) && (lp == NULL || (strcmp(lp, "dense") && strcmp(lp, "balanced") &&
						     strcmp(lp, "visual-first"))))
		return snprintf(err, n, "layoutPreference must be dense, balanced or visual-first"), -1;
	if (lp)
		json_object_set(state, "layoutPreference", v);
	if (it && !json_is_null(it) && (!json_is_integer(it) || json_integer_value(it) < 0 ||
					json_integer_value(it) > NOTE_MAX_ITERATIONS_CAP))
		return snprintf(err, n, "maxIterations must be a whole number from 0 to %d",
				NOTE_MAX_ITERATIONS_CAP), -1;
	if (json_is_integer(it))
		json_object_set(state, "maxIterations", it);
	if (router && !json_is_null(router) && !json_is_boolean(router))
		return snprintf(err, n, "modelRouter must be true or false"), -1;
	json_object_set_new(state, "modelRouter", json_boolean(json_is_true(router)));
	return 0;
}

static json_t *note_initial_state(void)
{
	json_t *st = json_pack("{s:[], s:s, s:i, s:i, s:i, s:[], s:n, s:s, s:n, s:n, s:[], s:[]}",
			       "messages", "currentAgent", "supervisor", "iterationCount", 0,
			       "maxIterations", NOTE_MAX_ITERATIONS, "clarificationRounds", 0,
			       "agentClarificationKeys", "requirementClarity", "layoutPreference",
			       "balanced", "contentType", "referenceImageUrl", "referenceImages",
			       "referenceInputs");
	static const char *const nulls[] = { "creativeBrief", "evidencePack", "generatedContent",
		"reviewFeedback", "qualityScores", "pendingConfirmation", "lastError", "canvas" };
	static const char *const arrays[] = { "referenceAnalyses", "bodyBlocks", "layoutSpec",
		"paragraphImageBindings",
		"textOverlayPlan", "imagePlans", "generatedImages", "generatedImagePaths",
		"generatedImageAssetIds", "forceRules" };

	for (size_t i = 0; i < NOTE_NSTAGES; i++)
		note_set_flag(st, note_stages[i].flag, 0);
	for (size_t i = 0; i < sizeof nulls / sizeof nulls[0]; i++)
		json_object_set_new(st, nulls[i], json_null());
	for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
		json_object_set_new(st, arrays[i], json_array());
	json_object_set_new(st, "attempts", json_pack("{s:i, s:i}", "writer_agent", 1,
						      "image_planner_agent", 1));
	json_object_set_new(st, "regenerations", json_pack("{s:i, s:i}", "content", 0,
							   "image_plans", 0));
	json_object_set_new(st, "creative", note_creative_new());
	return st;
}

static json_t *note_init(struct step_ctx *c, const json_t *input, char *err, size_t errlen)
{
	json_t *st = note_initial_state();

	if (note_take_topic(input, st, err, errlen) < 0 ||
	    note_opt_string(input, "audience", st, err, errlen) < 0 ||
	    note_opt_string(input, "tone", st, err, errlen) < 0 ||
	    note_take_options(input, st, err, errlen) < 0 ||
	    note_ref_inputs(c, input, st, err, errlen) < 0) {
		json_decref(st);
		return NULL;
	}
	return st;
}

static const struct wf_node note_nodes[] = {
	{ "supervisor", note_supervisor, 0 },
	{ "brief_compiler_agent", note_brief_compiler, 0 },
	{ "research_evidence_agent", note_research, 0 },
	{ "reference_intelligence_agent", note_reference, 0 },
	{ "writer_agent", note_writer, 0 },
	{ "layout_planner_agent", note_layout_planner, 0 },
	{ "image_planner_agent", note_image_planner, 0 },
	{ "image_agent", note_image, 0 },
	{ "review_agent", note_review, 0 },
};

/* Which node may follow which. After every agent the supervisor's choice
 * is taken at once (note_supervise): any agent may follow any node, and
 * any node may end the run; an agent that cannot decide goes back to the
 * supervisor, and a pause resumes at its own node or at the review
 * (a quality pause). */
#define NOTE_TO_AGENTS(from) \
	{ from, "brief_compiler_agent" }, \
	{ from, "research_evidence_agent" }, \
	{ from, "reference_intelligence_agent" }, \
	{ from, "writer_agent" }, \
	{ from, "layout_planner_agent" }, \
	{ from, "image_planner_agent" }, \
	{ from, "image_agent" }, \
	{ from, "review_agent" }, \
	{ from, WF_END }
static const struct wf_edge note_edges[] = {
	{ WF_START, "supervisor" }, { "supervisor", "supervisor" },
	NOTE_TO_AGENTS("supervisor"),
	{ "brief_compiler_agent", "supervisor" }, NOTE_TO_AGENTS("brief_compiler_agent"),
	{ "research_evidence_agent", "supervisor" }, NOTE_TO_AGENTS("research_evidence_agent"),
	{ "reference_intelligence_agent", "supervisor" }, NOTE_TO_AGENTS("reference_intelligence_agent"),
	{ "writer_agent", "supervisor" }, NOTE_TO_AGENTS("writer_agent"),
	{ "layout_planner_agent", "supervisor" }, NOTE_TO_AGENTS("layout_planner_agent"),
	{ "image_planner_agent", "supervisor" }, NOTE_TO_AGENTS("image_planner_agent"),
	{ "image_agent", "supervisor" }, NOTE_TO_AGENTS("image_agent"),
	{ "review_agent", "supervisor" }, NOTE_TO_AGENTS("review_agent"),
};

static const char *const note_text_fields[] = { "topic", "text", NULL };

/* What the input may hold (the init and turn hooks check it). */
static const char note_input_schema[] =
	"{\"$schema\": \"https://json-schema.org/draft/2020-12/schema\", "
	"\"title\": \"note input\", \"type\": \"object\", "
	"\"properties\": {\"topic\": {\"type\": \"string\"}, \"text\": {\"type\": \"string\"}, "
	"\"lang\": {\"enum\": [\"zh\", \"en\", null]}, \"audience\": {\"type\": \"string\"}, "
	"\"tone\": {\"type\": \"string\"}, \"layoutPreference\": {\"enum\": [\"dense\", "
	"\"balanced\", \"visual-first\"]}, \"maxIterations\": {\"type\": \"integer\", "
	"\"minimum\": 1}, \"modelRouter\": {\"type\": \"boolean\"}, "
	"\"referenceImageUrl\": {\"type\": \"string\"}, "
	"\"referenceImages\": {\"type\": \"array\", \"items\": {\"type\": \"string\"}}}, "
	"\"anyOf\": [{\"required\": [\"topic\"]}, {\"required\": [\"text\"]}]}";

/* What its state holds between steps (the fields every checkpoint has are
 * required; a node may add others). */
static const char note_state_schema[] =
	"{\"$schema\": \"https://json-schema.org/draft/2020-12/schema\", "
	"\"title\": \"note state\", \"type\": \"object\", "
	"\"properties\": {\"agentClarificationKeys\": {\"type\": \"array\"}, "
	"\"attempts\": {\"type\": \"object\"}, \"bestDraft\": {\"type\": \"object\"}, "
	"\"bodyBlocks\": {\"type\": \"array\"}, \"briefComplete\": {\"type\": \"boolean\"}, "
	"\"canvas\": {\"type\": [\"null\", \"object\"]}, "
	"\"clarificationRounds\": {\"type\": \"integer\"}, "
	"\"clarity\": {\"type\": \"object\"}, \"contentComplete\": {\"type\": \"boolean\"}, "
	"\"contentSource\": {\"type\": \"string\"}, \"contentType\": {\"type\": [\"null\", "
	"\"string\"]}, \"creative\": {\"type\": \"object\"}, "
	"\"creativeBrief\": {\"type\": [\"null\", \"object\"]}, "
	"\"currentAgent\": {\"type\": \"string\"}, "
	"\"evidenceComplete\": {\"type\": \"boolean\"}, "
	"\"evidencePack\": {\"type\": [\"null\", \"object\"]}, "
	"\"forceRules\": {\"type\": \"array\"}, \"generatedContent\": {\"type\": [\"null\", "
	"\"object\"]}, \"generatedImageAssetIds\": {\"type\": \"array\"}, "
	"\"generatedImagePaths\": {\"type\": \"array\"}, "
	"\"generatedImages\": {\"type\": \"array\"}, "
	"\"imagePlanComplete\": {\"type\": \"boolean\"}, "
	"\"imagePlans\": {\"type\": \"array\"}, \"imagesComplete\": {\"type\": \"boolean\"}, "
	"\"intakeDone\": {\"type\": \"boolean\"}, \"iterationCount\": {\"type\": \"integer\"}, "
	"\"lastError\": {\"type\": [\"null\", \"object\"]}, "
	"\"layoutComplete\": {\"type\": \"boolean\"}, "
	"\"layoutPreference\": {\"type\": \"string\"}, \"layoutSpec\": {\"type\": \"array\"}, "
	"\"maxIterations\": {\"type\": \"integer\"}, \"messages\": {\"type\": \"array\"}, "
	"\"modelRouter\": {\"type\": \"boolean\"}, \"noteTemplate\": {\"type\": \"object\"}, "
	"\"paragraphImageBindings\": {\"type\": \"array\"}, "
	"\"pendingConfirmation\": {\"type\": [\"null\", \"object\"]}, "
	"\"qualityScores\": {\"type\": [\"null\", \"object\"]}, "
	"\"referenceAnalyses\": {\"type\": \"array\"}, "
	"\"referenceImageUrl\": {\"type\": [\"null\", \"string\"]}, "
	"\"referenceImages\": {\"type\": \"array\"}, "
	"\"referenceInputs\": {\"type\": \"array\"}, "
	"\"referenceIntelligenceComplete\": {\"type\": \"boolean\"}, "
	"\"regenerations\": {\"type\": \"object\"}, \"request\": {\"type\": \"string\"}, "
	"\"requirementClarity\": {\"type\": [\"null\", \"number\"]}, "
	"\"result\": {\"type\": \"object\"}, \"reviewComplete\": {\"type\": \"boolean\"}, "
	"\"reviewFeedback\": {\"type\": [\"null\", \"object\"]}, "
	"\"supervisorDecision\": {\"type\": \"object\"}, "
	"\"templatesTopic\": {\"type\": \"string\"}, "
	"\"textOverlayPlan\": {\"type\": \"array\"}, \"toolCalls\": {\"type\": \"integer\"}, "
	"\"topic\": {\"type\": \"string\"}, \"workingPrompt\": {\"type\": \"object\"}}, "
	"\"required\": [\"agentClarificationKeys\", \"attempts\", \"bodyBlocks\", "
	"\"briefComplete\", \"canvas\", \"clarificationRounds\", \"contentComplete\", "
	"\"contentType\", \"creative\", \"creativeBrief\", \"currentAgent\", "
	"\"evidenceComplete\", \"evidencePack\", \"forceRules\", \"generatedContent\", "
	"\"generatedImageAssetIds\", \"generatedImagePaths\", \"generatedImages\", "
	"\"imagePlanComplete\", \"imagePlans\", \"imagesComplete\", \"iterationCount\", "
	"\"lastError\", \"layoutComplete\", \"layoutPreference\", \"layoutSpec\", "
	"\"maxIterations\", \"messages\", \"modelRouter\", \"paragraphImageBindings\", "
	"\"pendingConfirmation\", \"qualityScores\", \"referenceAnalyses\", "
	"\"referenceImageUrl\", \"referenceImages\", \"referenceInputs\", "
	"\"referenceIntelligenceComplete\", \"regenerations\", \"request\", "
	"\"requirementClarity\", \"reviewComplete\", \"reviewFeedback\", \"textOverlayPlan\", "
	"\"topic\"]}";

const struct workflow wf_note = {
	.name = "note",
	.nodes = note_nodes,
	.nnodes = sizeof note_nodes / sizeof note_nodes[0],
	.start = "supervisor",
	.edges = note_edges,
	.nedges = sizeof note_edges / sizeof note_edges[0],
	.text_fields = note_text_fields,
	.input_schema = note_input_schema,
	.state_schema = note_state_schema,
	.msgs = note_msgs,
	.nmsgs = NOTE_NMSGS,
	.init = note_init,
	.turn = NULL,
};
