// bench/peer/peer.mjs: the image workflow's graph shape in LangGraph.js,
// run in-process as the peer of bench/image_bench.
//
//   node peer.mjs memory STYLES_JSON THREADS
//   node peer.mjs sqlite STYLES_JSON THREADS DIR
//
// The graph is the image workflow's: planner -> rag -> executor -> critic ->
// genui, with error_handler beside them (six nodes; a thread that succeeds
// runs five node steps, as ours does). The state has our state's fields
// with values of the same shape and size; the nodes emit, through
// LangGraph's custom stream mode (config.writer), the events one of our
// image threads streams (28: thread_start, agent_start/agent_end per node,
// thought_log, state_update, image_progress, gen_ui_component,
// workflow_complete), and the reader turns each into its SSE text as our
// worker does. The nodes do small deterministic work in place of the
// offline provider: a keyword match on the style library for the intent,
// its prompt for the retrieval, an SVG picture hashed into an asset id.
//
// Prints threads/s, the time per thread (p50, p99), for sqlite the bytes
// the checkpointer stored per thread, and the process's peak RSS.
import { createHash } from "node:crypto";
import { readFileSync, statSync, existsSync } from "node:fs";
import { join } from "node:path";
import { Annotation, StateGraph, START, END, MemorySaver } from "@langchain/langgraph";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";

// The texts bench/image_bench.c sends, in the same order.
const TEXTS = [
	"赛博朋克风格的猫", "水彩风格的江南小镇", "cyberpunk city at night", "油画 向日葵",
	"像素风格的城堡", "a watercolor fox in the snow", "水墨 山水", "极简风格的咖啡杯",
];
const EVENTS_PER_THREAD = 28;
const AGENTS = {
	planner: "意图分析师", rag: "风格检索", executor: "绘图专家", critic: "质量审查员",
	genui: "界面助手", error_handler: "错误处理",
};

const last = () => Annotation({ reducer: (_a, b) => b, default: () => null });
const State = Annotation.Root({
	messages: last(), params: last(), lastResult: last(), userInput: last(), zh: last(),
	intent: last(), enhancedPrompt: last(), executionResult: last(), qualityCheck: last(),
	error: last(), uiComponents: last(), metadata: last(), result: last(), threadId: last(),
});

function peerEmit(config, node, type, fields) {
	config.writer({ type, timestamp: Date.now(), node, ...fields });
}

// A node as our engine runs one: agent_start, the node's own events, its
// changes as state_update, agent_end; after the last node's, the thread's
// workflow_complete.
function peerNode(name, body, styles) {
	return async (state, config) => {
		peerEmit(config, name, "agent_start", { agent: name, content: `${AGENTS[name]}开始工作…` });
		const changes = body(state, config, styles);
		peerEmit(config, name, "state_update", { changes });
		peerEmit(config, name, "agent_end", { agent: name, content: `${AGENTS[name]}完成了这一步` });
		if (name === "genui")
			peerEmit(config, name, "workflow_complete", { threadId: state.threadId, ...changes.result });
		return changes;
	};
}

function peerFindStyle(styles, text) {
	const t = text.toLowerCase();
	for (const s of styles)
		for (const k of s.keywords)
			if (t.includes(k.toLowerCase()))
				return { style: s, keyword: k };
	return null;
}

function peerPlanner(state, config, styles) {
	const text = state.userInput.text;
	const hit = peerFindStyle(styles, text);
	const style = hit ? hit.style.name_zh : "";
	const subject = (hit ? text.replace(hit.keyword, "") : text).replace("风格的", "").trim();
	const reasoning = `没有画图指令，但提到了风格「${style}」，按画面描述处理。主体：${subject}；风格：${style}`;
	const intent = { action: "generate_image", subject, style, confidence: 0.75, reasoning };

	peerEmit(config, "planner", "thread_start", { threadId: state.threadId, workflow: "image" });
	peerEmit(config, "planner", "thought_log",
		 { message: `已识别意图：${intent.action}，置信度：${intent.confidence}` });
	return { intent: { ...intent, rawResponse: JSON.stringify(intent) } };
}

function peerRag(state, config, styles) {
	const text = state.userInput.text;
	const hit = peerFindStyle(styles, text);
	const retrieved = hit ? [{ style: hit.style.name_zh, prompt: hit.style.prompt,
				   similarity: 0.8924, method: "bm25" }] : [];
	const final = [text, ...retrieved.map((r) => r.prompt)].join(", ");

	peerEmit(config, "rag", "thought_log", { message:
		`检索到相关风格（${retrieved.length} 条，按关键词检索（BM25））：${retrieved.map((r) => r.style).join("、")}` });
	return { enhancedPrompt: { original: text, retrieved, final } };
}

// The picture stays out of the state, as our asset store keeps it: the
// state names it by a hash of its bytes.
function peerPicture(prompt, params) {
	let svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${params.width}" height="${params.height}">`;
	for (let i = 0; svg.length < 3300; i++)
		svg += `<circle cx="${(i * 97) % params.width}" cy="${(i * 61) % params.height}" r="${20 + i % 40}" fill="#${(i * 2654435761 >>> 8).toString(16).padStart(6, "0").slice(0, 6)}"/>`;
	svg += `<title>${prompt.slice(0, 40)}</title></svg>`;
	return svg;
}

function peerExecutor(state, config) {
	const prompt = state.enhancedPrompt.final;
	const svg = peerPicture(prompt, state.params);
	const assetId = createHash("sha256").update(svg).digest("base64url");
	const url = `api/assets/${assetId}`;

	peerEmit(config, "executor", "image_progress", { taskId: 1, status: "generating", progress: 0.5, url: null, errorMessage: null });
	peerEmit(config, "executor", "image_progress", { taskId: 1, status: "done", progress: 1.0, url: null, errorMessage: null });
	peerEmit(config, "executor", "thought_log", { message: "开始执行任务：文生图" });
	peerEmit(config, "executor", "thought_log", { message: "任务执行完成" });
	return { executionResult: { imageUrl: url, taskType: "text_to_image", metadata: {
		prompt, retryCount: 0, assetId, mime: "image/svg+xml", bytes: svg.length,
		width: state.params.width, height: state.params.height,
		styleStrength: state.params.styleStrength, revisedPrompt: prompt } } };
}

function peerCritic(state, config) {
	const used = state.enhancedPrompt.retrieved.length;
	const feedback = `提示词完整；主体已写入提示词；风格已体现；检索到的 ${used} 个风格用上了 ${used} 个；参数在合理范围。评分 100/100，质量良好`;

	peerEmit(config, "critic", "thought_log", { message: "开始质量审查…" });
	peerEmit(config, "critic", "thought_log", { message: "质量审查完成。评分：100/100。已通过" });
	return { qualityCheck: { passed: true, score: 1.0, feedback, suggestions: [] } };
}

function peerGenui(state, config) {
	const url = state.executionResult.imageUrl;
	const text = "生成完成！质量评分：100/100。";
	const components = [
		{ widgetType: "SmartCanvas", props: { imageUrl: url, mode: "view" } },
		{ widgetType: "ActionPanel", props: { actions: [
			{ id: "regenerate_btn", label: "重新生成", type: "button" },
			{ id: "adjust_btn", label: "再调整一下", type: "button" },
			{ id: "inpaint_btn", label: "局部重绘", type: "button" }] } },
		{ widgetType: "AgentMessage", props: { text, state: "success", isThinking: false } },
	];
	const result = { imageUrl: url, taskType: state.executionResult.taskType,
			 score: state.qualityCheck.score, passed: state.qualityCheck.passed };

	for (const component of components)
		peerEmit(config, "genui", "gen_ui_component", { component });
	return { messages: [...state.messages, { role: "assistant", content: text, timestamp: Date.now() }],
		 uiComponents: components, result };
}

function peerErrorHandler(state, config) {
	const err = state.error ?? { code: "unknown_error", message: "出错了", node: "unknown" };

	peerEmit(config, "error_handler", "error", { code: err.code, message: err.message, node: err.node });
	return { result: { error: err } };
}

const peerRoute = (next) => (state) => (state.error ? "error_handler" : next);

function peerGraph(styles, checkpointer) {
	return new StateGraph(State)
		.addNode("planner", peerNode("planner", peerPlanner, styles))
		.addNode("rag", peerNode("rag", peerRag, styles))
		.addNode("executor", peerNode("executor", peerExecutor, styles))
		.addNode("critic", peerNode("critic", peerCritic, styles))
		.addNode("genui", peerNode("genui", peerGenui, styles))
		.addNode("error_handler", peerNode("error_handler", peerErrorHandler, styles))
		.addEdge(START, "planner")
		.addConditionalEdges("planner", peerRoute("rag"), ["rag", "error_handler"])
		.addConditionalEdges("rag", peerRoute("executor"), ["executor", "error_handler"])
		.addConditionalEdges("executor", peerRoute("critic"), ["critic", "error_handler"])
		.addConditionalEdges("critic", peerRoute("genui"), ["genui", "error_handler"])
		.addEdge("genui", END)
		.addEdge("error_handler", END)
		.compile({ checkpointer });
}

// Our init step's state: the turn's input and the fields a turn resets.
function peerInput(i, threadId) {
	const text = `${TEXTS[i % TEXTS.length]} ${i}`;
	const now = Date.now();

	return { threadId, messages: [{ role: "user", content: text, timestamp: now }],
		 params: { width: 1024, height: 1024, styleStrength: 70 }, lastResult: null,
		 userInput: { text }, zh: true, intent: null, enhancedPrompt: null, executionResult: null,
		 qualityCheck: null, error: null, uiComponents: [],
		 metadata: { retryCount: 0, startTime: now } };
}

// One whole thread, its events read as a client reads them: each one's
// SSE text, counted. Returns the bytes streamed.
async function peerThread(graph, i, threadId) {
	const stream = await graph.stream(peerInput(i, threadId),
					  { configurable: { thread_id: threadId }, streamMode: "custom" });
	let n = 0, bytes = 0, done = false;

	for await (const ev of stream) {
		n++;
		bytes += `id: ${n}\ndata: ${JSON.stringify(ev)}\n\n`.length;
		done = ev.type === "workflow_complete";
	}
	if (n !== EVENTS_PER_THREAD || !done)
		throw new Error(`thread ${threadId}: ${n} events, expected ${EVENTS_PER_THREAD} ending in workflow_complete`);
	return bytes;
}

function peerPct(v, p) {
	const s = [...v].sort((a, b) => a - b);
	return s[Math.min(s.length - 1, Math.floor(p * s.length))];
}

// What the SQLite checkpointer stored for the timed threads: the checkpoint
// and metadata blobs and the pending writes' values.
function peerSqliteBytes(saver) {
	const db = saver.db;
	const c = db.prepare("SELECT COUNT(*) n, SUM(LENGTH(checkpoint) + LENGTH(metadata)) b FROM checkpoints WHERE thread_id LIKE 't%'").get();
	const w = db.prepare("SELECT COUNT(*) n, SUM(LENGTH(value)) b FROM writes WHERE thread_id LIKE 't%'").get();
	return { checkpoints: c.n, writes: w.n, bytes: (c.b ?? 0) + (w.b ?? 0) };
}

function peerFileBytes(path) {
	let b = 0;

	for (const f of [path, `${path}-wal`])
		if (existsSync(f))
			b += statSync(f).size;
	return b;
}

async function peerMain() {
	const [kind, stylesPath, nArg, dir] = process.argv.slice(2);
	const threads = Number.parseInt(nArg ?? "1000", 10);
	const warm = Math.min(200, Math.max(10, Math.floor(threads / 10)));

	if (!["memory", "sqlite"].includes(kind) || !stylesPath || !(threads > 0) || (kind === "sqlite" && !dir)) {
		console.error("usage: peer.mjs memory STYLES_JSON THREADS | peer.mjs sqlite STYLES_JSON THREADS DIR");
		process.exit(2);
	}
	const styles = JSON.parse(readFileSync(stylesPath, "utf8"));
	const dbPath = kind === "sqlite" ? join(dir, "peer.sqlite") : null;
	const saver = kind === "sqlite" ? SqliteSaver.fromConnString(dbPath) : new MemorySaver();
	const graph = peerGraph(styles, saver);
	const times = [];
	let streamed = 0;

	for (let i = 0; i < warm; i++)
		await peerThread(graph, i, `w${i}`);
	if (kind === "sqlite")
		saver.db.pragma("wal_checkpoint(TRUNCATE)");
	const file0 = kind === "sqlite" ? peerFileBytes(dbPath) : 0;
	const t0 = performance.now();
	for (let i = 0; i < threads; i++) {
		const s = performance.now();

		streamed += await peerThread(graph, i, `t${i}`);
		times.push(performance.now() - s);
	}
	const wall = (performance.now() - t0) / 1e3;
	const label = kind === "sqlite" ? "SqliteSaver (file, WAL, the package's pragmas)" : "MemorySaver";

	console.log(`LangGraph.js image graph in-process, ${label}, ${threads} threads (after ${warm} warm-up)`);
	console.log(`  ${(threads / wall).toFixed(0).padStart(8)} threads/s  ${(threads * 5 / wall).toFixed(0).padStart(8)} steps/s`);
	console.log(`  thread p50 ${peerPct(times, 0.5).toFixed(3)} ms  p99 ${peerPct(times, 0.99).toFixed(3)} ms;  streamed ${(streamed / threads).toFixed(0)} B per thread (${EVENTS_PER_THREAD} events)`);
	if (kind === "sqlite") {
		const s = peerSqliteBytes(saver);

		saver.db.pragma("wal_checkpoint(TRUNCATE)");
		console.log(`  stored per thread (checkpoint + metadata blobs + writes values) ${(s.bytes / threads).toFixed(0)} B` +
			    `  (${(s.checkpoints / threads).toFixed(1)} checkpoints, ${(s.writes / threads).toFixed(1)} writes per thread)`);
		console.log(`  database file growth per thread (pages, indexes, keys) ${((peerFileBytes(dbPath) - file0) / threads).toFixed(0)} B`);
	}
	console.log(`  peak RSS ${process.resourceUsage().maxRSS} KiB`);
}

await peerMain();
