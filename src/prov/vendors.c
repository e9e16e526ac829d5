/* The table of model vendors (vendors.h): one row each, and the questions
 * asked of it. */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include "prov/prov.h"
#include "prov/vendors.h"

/* The first row answers a kind no row names: keep it the offline one. */
const struct prov_vendor prov_vendors[] = {
	{ "offline", &prov_offline_ops, PROV_CAN_ALL | PROV_BY_RULES },
	{ "openai", &prov_openai_ops, PROV_CAN_ALL | PROV_NEEDS_KEY },
	{ "dashscope", &prov_dashscope_ops,
	  PROV_CAN(PROV_IMAGE) | PROV_CAN(PROV_SEARCH) | PROV_NEEDS_KEY },
};
const size_t prov_nvendors = sizeof prov_vendors / sizeof prov_vendors[0];

const struct prov_vendor *prov_vendor_find(const char *name)
{
	for (size_t i = 0; name && i < prov_nvendors; i++)
		if (strcmp(prov_vendors[i].name, name) == 0)
			return &prov_vendors[i];
	return NULL;
}

const struct prov_vendor *prov_vendor_for(const char *name)
{
	const struct prov_vendor *v = prov_vendor_find(name);

	return v ? v : &prov_vendors[0];
}

int prov_vendor_can(const struct prov_vendor *v, enum conf_prov_role role)
{
	return (v->flags & PROV_CAN(role)) != 0;
}

int prov_kind_by_rules(const char *name)
{
	return (prov_vendor_for(name)->flags & PROV_BY_RULES) != 0;
}

void prov_vendor_names(enum conf_prov_role role, char *out, size_t n)
{
	size_t len = 0;

	if (n == 0)
		return;
	out[0] = '\0';
	for (size_t i = 0; i < prov_nvendors; i++)
		if (prov_vendor_can(&prov_vendors[i], role) && len < n)
			len += (size_t)snprintf(out + len, n - len, "%s%s", len ? "|" : "",
						prov_vendors[i].name);
}
