/* The tables of the interfaces: every vendor row of prov_vendors[] and
 * every backend row of store_backends[] says no more than its calls do (a
 * role it claims has its call; a backend that aivista-admin does not back
 * up or recover says who does), and the names the configuration and
 * store_open list come from the rows. */
#include "config.h"
#include <stdio.h>
#include "tap.h"
#include "conf/conf.h"
#include "prov/prov.h"
#include "prov/vendors.h"
#include "store/backend.h"
#include "store/backends.h"

/* The call of a role in a vendor's ops (vision is a chat call). */
static int rows_has_call(const struct prov_ops *ops, enum conf_prov_role r)
{
	switch (r) {
	case PROV_CHAT:
	case PROV_VISION:
		return ops->chat != NULL;
	case PROV_IMAGE:
		return ops->image != NULL;
	case PROV_SEARCH:
		return ops->search != NULL;
	default:
		return ops->embed != NULL;
	}
}

static void rows_test_vendor_calls(void)
{
	for (size_t i = 0; i < prov_nvendors; i++) {
		const struct prov_vendor *v = &prov_vendors[i];

		for (int r = 0; r < PROV_NROLES; r++)
			is_int(rows_has_call(v->ops, r), prov_vendor_can(v, r),
			       "%s: %s %s its call", v->name, conf_role_name(r),
			       prov_vendor_can(v, r) ? "claimed, with" : "not claimed, without");
		is_int(prov_vendor_find(v->name) == v, 1, "%s: found by its name", v->name);
	}
}

/* The kinds each [provider.ROLE] section takes, as its errors list them. */
static const struct {
	enum conf_prov_role role;
	const char *names;
} rows_role_cases[] = {
	{ PROV_CHAT, "offline|openai" },
	{ PROV_IMAGE, "offline|openai|dashscope" },
	{ PROV_SEARCH, "offline|openai|dashscope" },
	{ PROV_EMBEDDINGS, "offline|openai" },
	{ PROV_VISION, "offline|openai" },
};

/* What asking by kind answers. */
static const struct {
	const char *kind;
	int by_rules, needs_key;
} rows_kind_cases[] = {
	{ "offline", 1, 0 },
	{ "openai", 0, 1 },
	{ "dashscope", 0, 1 },
	{ "no-such-vendor", 1, 0 },   /* answered by the first row, the rules */
};

static void rows_test_vendor_names(void)
{
	char names[128];

	for (size_t i = 0; i < sizeof rows_role_cases / sizeof rows_role_cases[0]; i++) {
		prov_vendor_names(rows_role_cases[i].role, names, sizeof names);
		is_str(names, rows_role_cases[i].names, "[provider.%s] kind: one of %s",
		       conf_role_name(rows_role_cases[i].role), rows_role_cases[i].names);
	}
	for (size_t i = 0; i < sizeof rows_kind_cases / sizeof rows_kind_cases[0]; i++) {
		const char *k = rows_kind_cases[i].kind;

		is_int(prov_kind_by_rules(k), rows_kind_cases[i].by_rules, "%s: by rules or not", k);
		is_int((prov_vendor_for(k)->flags & PROV_NEEDS_KEY) != 0, rows_kind_cases[i].needs_key,
		       "%s: needs a key or not", k);
	}
	ok(prov_vendor_find("no-such-vendor") == NULL && prov_vendor_find(NULL) == NULL,
	   "an unknown kind has no row");
}

static void rows_test_backends(void)
{
	char names[128];

	for (size_t i = 0; i < store_nbackends; i++) {
		const struct store_backend *b = &store_backends[i];

		ok(b->ops || b->missing, "%s: in this build, or says what it lacks", b->name);
		ok(b->version_name != NULL, "%s: names its version", b->name);
		ok((b->flags & STORE_CAN_BACKUP) || b->backup_how, "%s: backed up by aivista-admin, "
		   "or says how", b->name);
		ok(!b->ops || (b->ops->backup != NULL) == !!(b->flags & STORE_CAN_BACKUP),
		   "%s: a backup call exactly when it claims one", b->name);
		ok((b->flags & STORE_CAN_RECOVER) || b->recover_how, "%s: recovered by aivista-admin, "
		   "or says who recovers it", b->name);
		is_int(store_backend_find(b->name) == b, 1, "%s: found by its name", b->name);
	}
	store_backend_names(names, sizeof names, "|", "|");
	is_str(names, "bdb|postgresql", "[store] backend: one of bdb|postgresql");
	store_backend_names(names, sizeof names, ", ", " or ");
	is_str(names, "bdb or postgresql", "said in words: bdb or postgresql");
	store_backend_names(names, 6, ", ", " or ");
	is_str(names, "bdb o", "cut to the buffer");
	ok(store_backend_find("sqlite") == NULL, "an unknown backend has no row");
}

static void rows_test_open_unknown(void)
{
	struct conf c;
	char err[256] = "";
	char *name;

	conf_init(&c);
	name = c.store_backend;
	c.store_backend = "sqlite";
	ok(store_open(&c, err, sizeof err) == NULL, "store_open refuses an unknown backend");
	is_str(err, "[store] backend = sqlite: unknown (bdb or postgresql)", "and lists the rows");
	c.store_backend = name;
	conf_free(&c);
}

int main(void)
{
	rows_test_vendor_calls();
	rows_test_vendor_names();
	rows_test_backends();
	rows_test_open_unknown();
	return tap_done();
}
