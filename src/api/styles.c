/* GET /api/styles: the style library the image workflow retrieves from,
 * for the browser to list; with ?q=TEXT, what a search for TEXT finds,
 * so people can see why a style was or was not added to a prompt. The
 * answer is made the same way for every library (kb_answer.h). */
#include "config.h"
#include "api/api.h"
#include "api/kb_answer.h"
#include "app.h"
#include "fcgi/req.h"
#include "kb/kb.h"

enum problem api_styles(struct req *r)
{
	struct kb *kb = kb_styles(r->app);

	if (kb == NULL)
		return req_fail(r, PB_INTERNAL, "the style library could not be loaded (the worker "
			       "log says why)");
	return api_kb_answer(r, kb, "styles");
}
