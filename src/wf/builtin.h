/* Registration of the product's workflows (one file per workflow in src/wf/). */
#ifndef AV_WF_BUILTIN_H
#define AV_WF_BUILTIN_H

void wf_builtin_register(void);

#endif
