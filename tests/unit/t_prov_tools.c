/* Function calling in the provider layer: openai.c against a small fake
 * OpenAI-compatible server run in a child process (the tools sent, the
 * tool_calls read back with their arguments parsed, a malformed call a
 * bad answer, prose beside calls), and the
 * offline provider's reading of rules that answer {"toolCalls"} or
 * {"answer"}. */
#include "config.h"
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tap.h"
#include "conf/conf.h"
#include "prov/prov.h"
#include "util/buf.h"

/* ---- the fake server: the reply by the request's model ---- */

static const struct fake_reply {
	const char *model;
	const char *body;
} fake_replies[] = {
	{ "calls", "{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":null,"
		   "\"tool_calls\":[{\"id\":\"c9\",\"type\":\"function\",\"function\":{\"name\":"
		   "\"read_file\",\"arguments\":\"{\\\"path\\\":\\\"a.c\\\"}\"}},{\"id\":\"c10\","
		   "\"type\":\"function\",\"function\":{\"name\":\"glob\",\"arguments\":\"\"}}]}}]}" },
	{ "badargs", "{\"choices\":[{\"message\":{\"content\":null,\"tool_calls\":[{\"id\":\"x\","
		     "\"type\":\"function\",\"function\":{\"name\":\"grep\",\"arguments\":"
		     "\"{not json\"}}]}}]}" },
	{ "noname", "{\"choices\":[{\"message\":{\"content\":null,\"tool_calls\":[{\"id\":\"x\","
		    "\"function\":{\"arguments\":\"{}\"}}]}}]}" },
	{ "both", "{\"choices\":[{\"message\":{\"content\":\"looking\",\"tool_calls\":[{\"function\":"
		  "{\"name\":\"write_file\",\"arguments\":\"{\\\"path\\\":\\\"o.txt\\\"}\"}}]}}]}" },
	{ "empty", "{\"choices\":[{\"message\":{\"content\":null}}]}" },
	{ "text", "{\"choices\":[{\"message\":{\"content\":\"done: 3 issues\"}}]}" },
};

static const char *fake_body_for(const char *req)
{
	for (size_t i = 0; i < sizeof fake_replies / sizeof fake_replies[0]; i++) {
		char want[64];

		snprintf(want, sizeof want, "\"model\":\"%s\"", fake_replies[i].model);
		if (strstr(req, want))
			return fake_replies[i].body;
	}
	return "{}";
}

/* Reads one request (headers and Content-Length body) into buf. */
static size_t fake_read(int fd, char *buf, size_t cap)
{
	size_t len = 0, want = 0;
	char *hend = NULL;

	while (len + 1 < cap) {
		ssize_t r = read(fd, buf + len, cap - 1 - len);

		if (r <= 0)
			break;
		len += (size_t)r;
		buf[len] = '\0';
		if (hend == NULL && (hend = strstr(buf, "\r\n\r\n")) != NULL) {
			char *cl = strcasestr(buf, "content-length:");

			want = (size_t)(hend + 4 - buf) + (cl ? strtoul(cl + 15, NULL, 10) : 0);
		}
		if (hend && len >= want)
			break;
	}
	buf[len] = '\0';
	return len;
}

/* Serves until killed; every request body is appended to the log file. */
static void fake_serve(int ls, const char *log)
{
	static char buf[1 << 16];

	for (;;) {
		int fd = accept(ls, NULL, NULL);
		const char *body;
		char head[256];
		FILE *f;

		if (fd < 0)
			continue;
		fake_read(fd, buf, sizeof buf);
		if ((f = fopen(log, "a")) != NULL) {
			fprintf(f, "%s\n----\n", strstr(buf, "\r\n\r\n") ? strstr(buf, "\r\n\r\n") + 4 : buf);
			fclose(f);
		}
		body = fake_body_for(buf);
		snprintf(head, sizeof head, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
			 "Content-Length: %zu\r\nConnection: close\r\n\r\n", strlen(body));
		if (write(fd, head, strlen(head)) < 0 || write(fd, body, strlen(body)) < 0)
			perror("fake write");
		close(fd);
	}
}

static pid_t fake_start(int *port, const char *log)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	socklen_t sl = sizeof sa;
	int ls = socket(AF_INET, SOCK_STREAM, 0);
	pid_t pid;

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (ls < 0 || bind(ls, (struct sockaddr *)&sa, sizeof sa) < 0 || listen(ls, 16) < 0 ||
	    getsockname(ls, (struct sockaddr *)&sa, &sl) < 0) {
		perror("fake server");
		exit(99);
	}
	*port = ntohs(sa.sin_port);
	pid = fork();
	if (pid == 0) {
		fake_serve(ls, log);
		_exit(0);
	}
	close(ls);
	return pid;
}

/* ---- the calls ---- */

static json_t *tools_new(void)
{
	return json_pack("[{s:s, s:{s:s, s:s, s:{s:s, s:{s:{s:s}}}}}]", "type", "function",
			 "function", "name", "read_file", "description", "Reads a file",
			 "parameters", "type", "object", "properties", "path", "type", "string");
}

static void openai_cases(struct prov *p, const char *log)
{
	static const struct {
		const char *model;
		enum prov_status status;
		size_t ncalls;
		const char *first_name, *first_id, *text;
	} cases[] = {
		{ "calls", PROV_OK, 2, "read_file", "c9", NULL },
		{ "badargs", PROV_BAD_ANSWER, 0, NULL, NULL, NULL },
		{ "noname", PROV_BAD_ANSWER, 0, NULL, NULL, NULL },
		{ "both", PROV_OK, 1, "write_file", "call_1", "looking" },
		{ "empty", PROV_BAD_ANSWER, 0, NULL, NULL, NULL },
		{ "text", PROV_OK, 0, NULL, NULL, "done: 3 issues" },
	};
	size_t n = sizeof cases / sizeof cases[0];
	json_t *tools = tools_new(), *msgs = json_pack("[{s:s, s:s}]", "role", "user", "content", "go");
	struct chat_call calls[6];
	struct prov_answer out[6];
	struct conf *cf = (struct conf *)prov_conf(p);

	/* The fake answers by model name: one call per model. */
	for (size_t i = 0; i < n; i++) {
		free(cf->prov[PROV_CHAT].model);
		cf->prov[PROV_CHAT].model = strdup(cases[i].model);
		memset(&calls[i], 0, sizeof calls[i]);
		calls[i].task = "agent:test";
		calls[i].messages = msgs;
		calls[i].tools = tools;
		calls[i].timeout_ms = 5000;
		prov_chat(p, &calls[i], NULL, &out[i]);
		is_int(out[i].status, cases[i].status, "%s: status %s", cases[i].model,
		       prov_status_name(out[i].status));
		is_int(json_array_size(out[i].tool_calls), cases[i].ncalls, "%s: tool calls",
		       cases[i].model);
		if (cases[i].first_name) {
			json_t *c0 = json_array_get(out[i].tool_calls, 0);

			is_str(json_string_value(json_object_get(c0, "name")), cases[i].first_name,
			       "%s: name", cases[i].model);
			is_str(json_string_value(json_object_get(c0, "id")), cases[i].first_id,
			       "%s: id", cases[i].model);
			ok(json_is_object(json_object_get(c0, "arguments")), "%s: arguments are an object",
			   cases[i].model);
		}
		if (cases[i].text)
			is_str(out[i].text, cases[i].text, "%s: text", cases[i].model);
		prov_answer_free(&out[i]);
	}
	{
		json_t *a0 = NULL;
		char *sent = NULL;
		FILE *f = fopen(log, "r");
		size_t len = 0;

		if (f) {
			sent = calloc(1, 1 << 20);
			len = fread(sent, 1, (1 << 20) - 1, f);
			fclose(f);
		}
		ok(len > 0 && strstr(sent, "\"tools\":[{\"type\":\"function\"") != NULL,
		   "the tools were sent as function definitions");
		ok(len > 0 && strstr(sent, "\"stream\":false") != NULL, "a call with tools is not streamed");
		a0 = json_loads(sent ? sent : "", JSON_DISABLE_EOF_CHECK, NULL);
		is_str(json_string_value(json_object_get(json_object_get(json_array_get(
			       json_object_get(a0, "tools"), 0), "function"), "name")), "read_file",
		       "the sent tool's name");
		json_decref(a0);
		free(sent);
	}
	json_decref(tools);
	json_decref(msgs);
}

/* ---- offline ---- */

static json_t *rules_calls(const json_t *facts, const char *text, char *err, size_t n)
{
	return json_pack("{s:[{s:s, s:{s:s}}, {s:s}]}", "toolCalls", "name", "glob", "arguments",
			 "pattern", "*.c", "name", "grep");
}

static json_t *rules_answer(const json_t *facts, const char *text, char *err, size_t n)
{
	return json_pack("{s:s}", "answer", "all done");
}

static json_t *rules_bad(const json_t *facts, const char *text, char *err, size_t n)
{
	return json_pack("{s:[{s:i}]}", "toolCalls", "name", 3);
}

static void offline_cases(void)
{
	static const struct {
		const char *what;
		prov_rules_fn fn;
		int tools;
		enum prov_status status;
		size_t ncalls;
		const char *text;
	} cases[] = {
		{ "calls", rules_calls, 1, PROV_OK, 2, NULL },
		{ "answer", rules_answer, 1, PROV_OK, 0, "all done" },
		{ "malformed call", rules_bad, 1, PROV_BAD_ANSWER, 0, NULL },
		{ "without tools the object is the reply", rules_answer, 0, PROV_OK, 0,
		  "{\"answer\":\"all done\"}" },
	};
	json_t *tools = json_array();

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct chat_call c = { .task = "agent:x", .rules = cases[i].fn };
		struct prov_answer a;

		c.tools = cases[i].tools ? tools : NULL;
		prov_answer_init(&a);
		prov_offline_ops.chat(NULL, NULL, &c, 1, NULL, &a);
		is_int(a.status, cases[i].status, "offline %s: status", cases[i].what);
		is_int(json_array_size(a.tool_calls), cases[i].ncalls, "offline %s: calls", cases[i].what);
		if (cases[i].ncalls) {
			is_str(json_string_value(json_object_get(json_array_get(a.tool_calls, 1), "id")),
			       "call_2", "offline %s: ids in order", cases[i].what);
			ok(json_is_object(json_object_get(json_array_get(a.tool_calls, 1), "arguments")),
			   "offline %s: missing arguments are {}", cases[i].what);
			ok(a.text == NULL, "offline %s: no text beside calls", cases[i].what);
		}
		if (cases[i].text)
			is_str(a.text, cases[i].text, "offline %s: text", cases[i].what);
		prov_answer_free(&a);
	}
	json_decref(tools);
}

int main(void)
{
	char log[] = "/tmp/t_prov_tools.XXXXXX", cfg[512];
	struct conf cf;
	struct buf errs;
	struct prov *p;
	int port, fd = mkstemp(log);
	pid_t pid;

	if (fd < 0)
		return 99;
	close(fd);
	signal(SIGPIPE, SIG_IGN);
	pid = fake_start(&port, log);
	snprintf(cfg, sizeof cfg, "[provider.chat]\nkind = openai\nbase_url = http://127.0.0.1:%d/v1\n"
		 "model = calls\napi_key = k\nretries = 0\n", port);
	conf_init(&cf);
	buf_init(&errs, 4096);
	if (conf_load_string(&cf, cfg, "t_prov_tools", &errs) < 0) {
		fprintf(stderr, "%s\n", errs.data);
		return 99;
	}
	p = prov_new(&cf);
	openai_cases(p, log);
	offline_cases();
	prov_free(p);
	kill(pid, SIGTERM);
	waitpid(pid, NULL, 0);
	unlink(log);
	conf_free(&cf);
	buf_free(&errs);
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}
