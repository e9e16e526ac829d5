/* The model vendors a [provider.*] section's kind names, one row each in
 * prov_vendors[] (vendors.c): the name, the calls it answers (its file's
 * struct prov_ops) and what it can do. Whatever depends on the vendor asks
 * its row, never its name: the configuration which roles it may fill and
 * whether it needs a key, the provider set which calls it answers, the
 * engine and retrieval whether a model answers at all. A new vendor is its
 * file and one row. This header names no provider type, so the
 * configuration can ask it. */
#ifndef AV_PROV_VENDORS_H
#define AV_PROV_VENDORS_H
#include <stddef.h>
#include "conf/conf.h"

struct prov_ops;

/* The roles a vendor may fill: PROV_CAN(PROV_CHAT) | PROV_CAN(PROV_IMAGE)
 * ...; its prov_ops has the call of each (vision is a chat call). */
#define PROV_CAN(role) (1u << (role))
#define PROV_CAN_ALL (PROV_CAN(PROV_NROLES) - 1u)
/* It needs an API key: api_key, or the variable api_key_env names. */
#define PROV_NEEDS_KEY (1u << 8)
/* No model answers: the worker does, by the rules a call carries. Its
 * answers are not cached (the rules cost less than the cache), it has no
 * embeddings (retrieval stays lexical) and no web search. */
#define PROV_BY_RULES (1u << 9)

struct prov_vendor {
	const char *name;              /* kind = NAME */
	const struct prov_ops *ops;    /* its calls: those of the roles it can fill */
	unsigned flags;                /* PROV_CAN(role)..., PROV_NEEDS_KEY, PROV_BY_RULES */
};

extern const struct prov_vendor prov_vendors[];
extern const size_t prov_nvendors;

/* The row of kind name, or NULL for a name no row has. */
const struct prov_vendor *prov_vendor_find(const char *name);
/* The row that answers kind name: its own, or for a name no row has (the
 * configuration lets none through) the first, which answers by rules. */
const struct prov_vendor *prov_vendor_for(const char *name);
/* Nonzero when v may fill role. */
int prov_vendor_can(const struct prov_vendor *v, enum conf_prov_role role);
/* Nonzero when a provider of kind name answers by rules, without a model. */
int prov_kind_by_rules(const char *name);
/* The names of the vendors that may fill role, in table order, joined by
 * '|' ("offline|openai"), into out (cut to n bytes). */
void prov_vendor_names(enum conf_prov_role role, char *out, size_t n);

#endif
