/* The chat workflow's words, in Chinese and in English: the names of its nodes
 * (agent.<node>), its error codes (error.<code>) and everything else it
 * writes for people, added to the message catalogue (text/msg.h) when the
 * workflow is registered. */
#include "config.h"
#include "text/msg.h"
#include "wf/chat/chat.h"

const struct msg_def chat_msgs[] = {
	{ "agent.router", "意图路由", "The router" },
	{ "agent.image_gen", "图片生成", "Image generation" },
	{ "agent.web_search", "联网搜索", "Web search" },
	{ "agent.time_query", "时间工具", "The clock" },
	{ "agent.chat", "对话助手", "The assistant" },
	{ "agent.vision", "图片识别", "Picture reading" },
	{ "chat.route.rules.matched", "关键词规则 %s 命中", "the keyword rule %s matched" },
	{ "chat.route.rules.excluded", "规则 %s 排除了生图，按普通对话处理", "the rule %s rules out a picture: plain conversation" },
	{ "chat.route.rules.none", "没有命中图片、时间或搜索规则，按普通对话处理", "no picture, time or search rule matched: plain conversation" },
	{ "chat.route.rules.gated", "命中的功能未开启或不可用，按普通对话处理", "the feature asked for is off or unavailable: plain conversation" },
	{ "chat.route.model_error", "路由模型调用失败（%s），改用关键词规则", "the routing model failed (%s): the keyword rules decide" },
	{ "chat.route.model_failed", "路由模型没有给出可用的回答，改用关键词规则", "the routing model gave no usable answer: the keyword rules decide" },
	{ "chat.route.model_bad", "路由模型的回答无法解析，改用关键词规则", "the routing model's answer did not parse: the keyword rules decide" },
	{ "chat.route.model_unsure", "路由模型的置信度低于 %.2f，改用关键词规则", "the routing model's confidence is below %.2f: the keyword rules decide" },
	{ "chat.route.model_gated", "路由模型选择的功能未开启或不可用，改用关键词规则", "the routing model chose a feature that is off or unavailable: the keyword rules decide" },
	{ "chat.fallback", "%s 没有完成，转到 %s", "%s did not succeed: going on with %s" },
	{ "chat.image.progress", "🎨 正在生成图片…", "🎨 Generating the picture…" },
	{ "chat.image.prompt_kept", "提示词改写失败（%s），使用原话", "the prompt could not be rewritten (%s): using the request as written" },
	{ "chat.image.done", "图片已生成：%s", "Here is the picture: %s" },
	{ "chat.image.failed", "图片生成失败（%s）", "the picture could not be generated (%s)" },
	{ "chat.search.progress", "🔍 正在联网搜索…", "🔍 Searching the web…" },
	{ "chat.search.offline", "离线模式：没有配置联网搜索，改为检索本地笔记库", "Offline: no web search is configured, so the local notes are searched instead" },
	{ "chat.search.offline_facts", "（离线模式：以下资料来自本地笔记库，不是联网搜索的结果）\n%s", "(Offline: these notes come from the local corpus, not from a web search.)\n%s" },
	{ "chat.search.offline_none", "本地笔记库里没有相关内容", "nothing in the local notes is about this" },
	{ "chat.search.empty", "搜索没有返回事实，改为搜索问答", "the search gave no facts: asking it as a question" },
	{ "chat.search.ask", "请联网搜索并用几句话概述与这个问题有关的最新事实：%s", "Search the web and sum up in a few sentences the latest facts about this question: %s" },
	{ "chat.search.failed", "联网搜索失败（%s）", "the web search failed (%s)" },
	{ "chat.search.inject", "以下是联网搜索得到的事实，请据此回答：", "Facts from a web search; answer with them:" },
	{ "chat.time.date", "%d年%d月%d日", "%04d-%02d-%02d" },
	{ "chat.time.answer", "现在是 %s %s %s（时区 %s，UTC%s），Unix 时间戳 %lld。", "It is %s, %s, %s (time zone %s, UTC%s); Unix timestamp %lld." },
	{ "chat.time.place", "%s现在是 %s %s %s（%s，时区 %s，UTC%s）。", "In %s it is %s, %s, %s (%s, time zone %s, UTC%s)." },
	{ "chat.time.day", "%s是 %s %s。", "%s is %s, %s." },
	{ "chat.time.day.place", "%s的%s是 %s %s。", "In %s, %s is %s, %s." },
	{ "chat.time.several", "%s有多个时区，按%s的时间，现在是 %s %s %s（%s，时区 %s，UTC%s）。", "%s has several time zones; in %s it is %s, %s, %s (%s, time zone %s, UTC%s)." },
	{ "chat.time.sun", "星期日", "Sunday" },
	{ "chat.time.mon", "星期一", "Monday" },
	{ "chat.time.tue", "星期二", "Tuesday" },
	{ "chat.time.wed", "星期三", "Wednesday" },
	{ "chat.time.thu", "星期四", "Thursday" },
	{ "chat.time.fri", "星期五", "Friday" },
	{ "chat.time.sat", "星期六", "Saturday" },
	{ "chat.route.images", "这一轮带有 %d 张图片：先识别图片，问题需要实时信息时再联网搜索", "this turn brings %d pictures: they are described first, and searched for when the question needs live facts" },
	{ "chat.vision.unreadable", "第 %d 张图片读不出来：%s", "picture %d cannot be read: %s" },
	{ "chat.vision.failed", "图片识别失败（%s），只按文字回答", "the pictures could not be described (%s): answering from the text" },
	{ "chat.vision.inject", "用户发来的图片，视觉识别的结果如下：", "What the user's pictures show, as the vision model described them:" },
	{ "chat.vision.offline", "离线模式：没有接入视觉模型，我看不到图片里画的是什么（物体、人物、文字都无法识别），只能读出文件本身的信息。", "Offline: no vision model is connected, so I cannot see what the pictures show (objects, people, text); I can only read the files themselves. " },
	{ "chat.vision.image", "第 %zu 张：%s，%s 像素，%lld 字节", "Picture %zu: %s, %s pixels, %lld bytes" },
	{ "chat.vision.colours", "，主色 ", ", main colours " },
	{ "chat.vision.tone", "，整体%s", ", %s overall" },
	{ "chat.vision.warm", "偏暖", "warm" },
	{ "chat.vision.cool", "偏冷", "cool" },
	{ "chat.vision.neutral", "色调中性", "neutral in tone" },
	{ "chat.vision.end", "（仅文件信息）。", " (file information only). " },
	{ "error.chat_failed", "对话模型没有回答", "The chat model did not answer" },
	{ "error.reply_cut", "回复中途中断，已保留已经说出的部分", "The reply stopped part way: what was said is kept" },
};

const size_t chat_nmsgs = sizeof chat_msgs / sizeof chat_msgs[0];

_Static_assert(sizeof chat_msgs / sizeof chat_msgs[0] == CHAT_NMSGS, "CHAT_NMSGS counts the rows of chat_msgs");
