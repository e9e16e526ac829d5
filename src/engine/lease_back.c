/* Leases given back late: a run whose step could not be committed
 * because the store was away (a PostgreSQL server restarting) could not
 * give its lease back either. Until the lease expired, the thread would
 * wait for this process, which no longer runs it: another worker asked
 * to continue it would only follow. The thread IDs are kept here (a few,
 * for this process) and their leases given back once the store answers:
 * right after the failed request, trying for a few seconds (a server
 * restart), then once after each later request; a lease that is no longer
 * this process's is left alone. */
#include "config.h"
#include <string.h>
#include <unistd.h>
#include <jansson.h>
#include "engine/engine.h"
#include "store/store.h"
#include "util/clock.h"
#include "util/log.h"

#define LEASE_BACK_MAX 16
#define LEASE_BACK_WAIT_MS 5000    /* right after the failure: tries for this long */
#define LEASE_BACK_RETRY_MS 250

static uint8_t lease_back_tids[LEASE_BACK_MAX][STORE_TID];
static int lease_back_n;
static int lease_back_fresh;   /* one was added since the last lease_back_run */

void lease_back_later(const uint8_t tid[STORE_TID])
{
	for (int i = 0; i < lease_back_n; i++)
		if (memcmp(lease_back_tids[i], tid, STORE_TID) == 0)
			return;
	if (lease_back_n == LEASE_BACK_MAX) {
		/* The oldest gives way: its lease expires by itself. */
		memmove(lease_back_tids[0], lease_back_tids[1], (LEASE_BACK_MAX - 1) * STORE_TID);
		lease_back_n--;
	}
	memcpy(lease_back_tids[lease_back_n++], tid, STORE_TID);
	lease_back_fresh = 1;
}

int lease_back_pending(void)
{
	return lease_back_n;
}

/* One thread's lease, if still this process's, set to null. */
static int lease_back_fn(struct store *s, struct store_txn *txn, void *ctx)
{
	const uint8_t *tid = ctx;
	json_t *rec = NULL;
	int rc = store_thread_get(s, txn, tid, &rec, STORE_RMW);

	if (rc == 0 && lease_mine(rec)) {
		json_object_set_new(rec, "lease", json_null());
		rc = store_thread_put(s, txn, tid, rec);
	}
	json_decref(rec);
	return rc == STORE_NOTFOUND ? 0 : rc;
}

/* One try at each lease kept: 0 when all are done, -1 when the store is
 * still away (those left stay). */
static int lease_back_once(struct store *s)
{
	int kept = 0;

	for (int i = 0; i < lease_back_n; i++) {
		int rc = store_txn(s, lease_back_fn, lease_back_tids[i]);

		if (rc == STORE_UNAVAILABLE) {
			/* Still away: this one and the rest wait for the next time. */
			memmove(lease_back_tids[kept], lease_back_tids[i],
				(size_t)(lease_back_n - i) * STORE_TID);
			kept += lease_back_n - i;
			break;
		}
		if (rc)
			log_warn("a lease left from a failed commit could not be given back: %s "
				 "(it expires by itself)", store_strerror(rc));
	}
	lease_back_n = kept;
	return kept ? -1 : 0;
}

void lease_back_run(struct store *s)
{
	long long until = clock_mono_ms() + (lease_back_fresh ? LEASE_BACK_WAIT_MS : 0);

	lease_back_fresh = 0;
	while (lease_back_once(s) != 0 && !store_needs_restart(s) &&
	       clock_mono_ms() < until)
		usleep(LEASE_BACK_RETRY_MS * 1000);
}
