/* GET /api/health: liveness, version, store status (with its backend)
 * and provider kinds.
 * Nothing secret: no paths, no keys, no URLs with credentials. */
#include "config.h"
#include <unistd.h>
#include <jansson.h>
#include "api/api.h"
#include "app.h"
#include "fcgi/req.h"
#include "store/store.h"
#include "util/clock.h"
#include "util/log.h"

/* Why the store does not answer goes to the log only: it names the
 * store's directory and the system's words, which are not for clients. */
static json_t *api_health_store(struct app *app)
{
	char err[256] = "";
	int ok = app->store && store_ping(app->store, err, sizeof err) == 0;

	/* The backend configured, whether or not it could be opened. */
	const char *backend = app->store ? store_backend_name(app->store) : app->conf.store_backend;

	if (ok)
		return json_pack("{s:b, s:s, s:s}", "reachable", 1, "backend", backend, "durability",
				 app->conf.durability);
	log_warn("health: the store is not available: %s", app->store ? err : app->store_err);
	return json_pack("{s:b, s:s, s:s, s:s}", "reachable", 0, "backend", backend, "error",
			 APP_STORE_DOWN, "code", problem_code(APP_STORE_PROBLEM(app)));
}

enum problem api_health(struct req *r)
{
	struct app *app = r->app;
	json_t *prov = json_object(), *j, *store = api_health_store(app);
	int ok = json_is_true(json_object_get(store, "reachable"));

	for (int i = 0; i < PROV_NROLES; i++)
		json_object_set_new(prov, conf_role_name(i), json_string(app->conf.prov[i].kind));
	j = json_pack("{s:s, s:s, s:s, s:I, s:I, s:o, s:o}", "status", ok ? "ok" : "degraded",
		      "name", PACKAGE_NAME, "version", PACKAGE_VERSION, "pid", (json_int_t)getpid(),
		      "uptimeMs", (json_int_t)(clock_mono_ms() - app->start_ms), "store", store,
		      "providers", prov);
	req_send_json(r, ok ? 200 : 503, "application/json", j);
	json_decref(j);
	return PB_OK;
}
