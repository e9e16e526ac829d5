/* The note review's dimensions (note.h), each with the stage that owns
 * it: where the quality loop sends a draft that fails it. Read by the
 * review (note_review.c), its offline rules (note_rules_review.c) and the
 * supervisor (note_route.c). */
#include "config.h"
#include <string.h>
#include "wf/note/note.h"

const struct note_dim note_dims[NOTE_NDIMS] = {
	{ "infoDensity", "writer_agent" },
	{ "readability", "writer_agent" },
	{ "platformFit", "writer_agent" },
	{ "textImageAlignment", "image_planner_agent" },
	{ "styleConsistency", "image_agent" },
	{ "imageCompleteness", "image_agent" },
};

const char *note_dim_owner(const char *dim)
{
	for (size_t i = 0; dim && i < NOTE_NDIMS; i++)
		if (strcmp(dim, note_dims[i].dim) == 0)
			return note_dims[i].agent;
	return NULL;
}
