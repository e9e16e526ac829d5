/* The product's workflows (one folder each under src/wf/, one row each in
 * builtin.c). */
#ifndef AV_WF_BUILTIN_H
#define AV_WF_BUILTIN_H

/* Registers them, with their configuration sections and their words:
 * before the configuration is read. */
void wf_builtin_register(void);

#endif
