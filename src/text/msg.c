/* The message catalogue (see msg.h). */
#include "config.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text/msg.h"

static const struct msg_def msg_defs[] = {
	/* Retrieval (kb/retrieve.h): how a library was searched. */
	{ "kb.method.bm25", "按关键词检索（BM25）", "searched by keywords (BM25)" },
	{ "kb.method.hybrid", "按关键词与语义检索（BM25 与向量余弦相似度融合）", "searched by keywords and meaning (BM25 fused with embedding cosine similarity)" },
	{ "kb.method.fallback", "向量检索暂不可用，按关键词检索（BM25）", "embeddings unavailable: searched by keywords (BM25)" },
	/* The engine. */
	{ "agent.start", "%s开始工作…", "%s is starting…" },
	{ "agent.end", "%s完成了这一步", "%s has finished this step" },
	{ "pause.waiting", "工作流已暂停，等待你的确认", "The workflow is paused, waiting for your decision" },
	{ "yield.reconnect", "稍后自动重新连接，继续工作", "Reconnecting to carry on" },
	{ "decide.received", "已收到你的决定", "Your decision is received" },
	{ "decide.timeout", "等待超时，已按默认选项继续", "The pause timed out: the default choice was applied" },
	{ "option.approve", "继续", "Continue" },
	{ "option.reject", "重新生成", "Regenerate" },
	{ "option.modify", "修改", "Edit" },
	{ "error.node_failed", "这一步没能完成", "This step could not be completed" },
	{ "error.bad_route", "工作流走到了不存在的步骤，已停止", "The workflow went to a step that does not exist and stopped" },
	{ "error.max_iterations", "重复次数已达上限，流程终止", "The workflow went round too many times and stopped" },
	{ "error.event_limit", "这个会话的记录已满，请新开一个会话", "This thread's log is full: start a new thread" },
	{ "error.step_crashed", "这一步反复导致服务进程退出，已停止", "This step kept stopping the server process and was given up" },
	{ "error.request_too_large", "这次请求要保存的内容太多，未能完成", "This request would store too much: it was stopped" },
	{ "error.image_too_large", "图片太大，无法处理", "The image is too large to process" },
	{ "error.writer_failed", "文案生成失败", "The draft could not be written" },
	{ "error.planner_failed", "图片规划失败", "The images could not be planned" },
	{ "error.regeneration_limit", "已重新生成 3 次仍未通过，流程结束", "Regenerated three times without approval: the workflow ended" },
	{ "error.agent_failed", "失败的环节无法完成，流程终止", "A failed step could not be completed: the workflow stopped" },
	/* The chat workflow. */
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
	{ "error.cancelled", "已按你的要求停止", "Stopped as you asked" },
	{ "error.chat_failed", "对话模型没有回答", "The chat model did not answer" },
	{ "error.reply_cut", "回复中途中断，已保留已经说出的部分", "The reply stopped part way: what was said is kept" },
	/* The image workflow. */
	{ "image.intent.rules", "模型返回的不是 JSON，已按规则解析意图", "the model's reply was not JSON: the intent comes from the rules" },
	{ "image.intent.regenerate", "已识别意图：重新生成上一张图（%s），置信度：0.90", "intent: the last picture again (%s), confidence 0.90" },
	{ "image.intent", "已识别意图：%s，置信度：%.2f", "intent: %s, confidence %.2f" },
	{ "image.regenerate", "重新生成：沿用上一张图的提示词", "regenerating: the last picture's prompt as it was used" },
	{ "image.keep", "沿用上一张图的提示词（主体：%s，风格：%s）", "keeping the last picture's prompt (subject: %s, style: %s)" },
	{ "image.restyle", "换成「%s」风格重画上一张图（主体：%s），重新检索风格库", "redrawing the last picture in the style %s (subject: %s): searching the style library again" },
	{ "image.rag.unavailable", "风格库暂不可用，使用原始 Prompt", "the style library is not available: using the original prompt" },
	{ "image.rag.found", "检索到相关风格（%d 条，%s）：%s", "matching styles found (%d, %s): %s" },
	{ "image.rag.none", "未检索到匹配的风格（%s），使用原始 Prompt", "no matching style (%s): using the original prompt" },
	{ "image.retry", "生成失败（%s），正在重试（%lld/%ld）", "generation failed (%s): retrying (%lld/%ld)" },
	{ "image.done", "任务执行完成", "the picture is done" },
	{ "image.run", "开始执行任务：%s", "running: %s" },
	{ "image.adjust", "调整参数：%s", "adjusting: %s" },
	{ "image.review.start", "开始质量审查…", "reviewing the picture…" },
	{ "image.review.done", "质量审查完成。评分：%.0f/100。%s", "review done: %.0f/100, %s" },
	{ "image.action.inpainting", "局部重绘", "repainting a region" },
	{ "image.action.adjust", "参数调整", "adjusting the parameters" },
	{ "image.action.generate", "文生图", "text to image" },
	{ "image.review.skipped", "审查未能完成，默认通过", "The review could not be done: passing by default" },
	{ "image.review.passed", "已通过", "passed" },
	{ "image.review.needs_work", "建议优化", "needs work" },
	{ "image.button.regenerate", "重新生成", "Regenerate" },
	{ "image.button.adjust", "再调整一下", "Adjust" },
	{ "image.button.inpaint", "局部重绘", "Repaint a region" },
	{ "image.complete", "生成完成！质量评分：%.0f/100。", "Done! Quality score: %.0f/100." },
	{ "image.friendly.unknown_intent", "没能理解想要生成什么，试试描述画面，例如：赛博朋克风格的猫", "I could not tell what to draw. Try describing the picture, e.g. \"a cyberpunk cat\"." },
	{ "image.friendly.mask_required", "局部重绘需要先在图片上绘制要修改的区域（蒙版）", "To change part of the picture, first paint a mask over that part." },
	{ "image.friendly.nothing_to_adjust", "还没有可以调整的图片，请先描述要生成的画面", "There is no picture to adjust yet: describe one first." },
	{ "image.friendly.nothing_to_regenerate", "还没有可以重新生成的图片，请先描述想要的画面，例如：雪山下的小木屋", "There is no picture to regenerate yet: describe one first, e.g. \"a lighthouse at dawn\"." },
	{ "image.friendly.planner_timeout", "理解请求超时了，请稍后再试", "Understanding the request took too long: please try again." },
	{ "image.friendly.image_too_large", "图片或蒙版太大，请换一张小一些的图片", "The picture or the mask is too large: use a smaller picture." },
	{ "image.friendly.executor_failed", "图片生成失败，请稍后重试或换个描述", "The picture could not be made: try again, or describe it differently." },
	{ "image.friendly.other", "处理请求时出错了，请稍后重试", "Something went wrong: please try again." },
	{ "image.regenerate.none", "要求重新生成，但还没有图片", "a regeneration was asked for, but there is no picture yet" },
	{ "image.regenerate.reason", "重新生成上一张图，沿用它的提示词", "the last picture again, from the same prompt" },
	{ "image.unspecified", "未指定", "unspecified" },
	/* Names of the agents and nodes. */
	{ "agent.supervisor", "主管", "The supervisor" },
	{ "agent.brief_compiler_agent", "需求分析师", "The brief compiler" },
	{ "agent.research_evidence_agent", "研究专家", "The researcher" },
	{ "agent.reference_intelligence_agent", "参考图分析师", "The reference analyst" },
	{ "agent.writer_agent", "创作专家", "The writer" },
	{ "agent.layout_planner_agent", "版式设计师", "The layout planner" },
	{ "agent.image_planner_agent", "配图策划", "The image planner" },
	{ "agent.image_agent", "绘图专家", "The illustrator" },
	{ "agent.review_agent", "审核专家", "The reviewer" },
	{ "agent.planner", "意图分析师", "The intent planner" },
	{ "agent.rag", "风格检索", "The style finder" },
	{ "agent.executor", "绘图专家", "The illustrator" },
	{ "agent.critic", "质量审查员", "The critic" },
	{ "agent.genui", "界面助手", "The interface assistant" },
	{ "agent.error_handler", "错误处理", "The error handler" },
	/* The note workflow. */
	{ "note.ask.content", "文案已生成，是否继续？", "The draft is ready: continue?" },
	{ "note.ask.image_plans", "图片规划已生成，是否继续？", "The image plan is ready: continue?" },
	{ "orch.ask.plan", "执行计划已生成，是否按此执行？", "The plan is ready: run it?" },
	{ "orch.ask.plan_again", "修改后的计划有问题，请再修改或确认：%s", "The edited plan has problems; edit it again or decide: %s" },
	{ "orch.plan.no_id", "第 %zu 个子任务没有 id", "subtask %zu has no id" },
	{ "orch.plan.duplicate_subtask", "子任务 id %s 重复使用", "subtask id %s is used twice" },
	{ "orch.plan.no_description", "子任务 %s 没有描述", "subtask %s has no description" },
	{ "orch.plan.unknown_agent", "子任务 %s 指定的智能体 %s 不存在", "subtask %s names an unknown agent %s" },
	{ "orch.plan.bad_inputs", "%s 的输入必须是数组", "the inputs of %s must be an array" },
	{ "orch.plan.empty_group", "执行顺序的第 %zu 组为空", "group %zu of executionOrder is empty" },
	{ "orch.plan.unknown_subtask", "执行顺序中的 %s 不是子任务", "executionOrder names %s, which is no subtask" },
	{ "orch.plan.duplicate_in_order", "%s 在执行顺序中出现了 %zu 次", "%s appears %zu times in executionOrder" },
	{ "orch.plan.missing_from_order", "子任务 %s 不在执行顺序的任何一组中", "subtask %s is in no group of executionOrder" },
	{ "orch.plan.unknown_input", "%s 的输入 %s 不是子任务", "%s takes input from %s, which is no subtask" },
	{ "orch.plan.input_not_earlier", "%s 的输入 %s 不在更早的组中执行", "%s takes input from %s, which does not run in an earlier group" },
	{ "orch.plan.bad_plan", "计划不是一个 JSON 对象", "the plan is not a JSON object" },
	{ "orch.plan.no_subtasks", "计划需要 1 到 %d 个子任务", "the plan needs 1 to %d subtasks" },
	{ "orch.plan.bad_order", "执行顺序必须是非空的分组数组", "executionOrder must be a non-empty array of groups" },
	{ "orch.plan.none", "（无）", "(none)" },
	{ "orch.plan.id_too_long", "第 %zu 个子任务的 id 超过 %d 字节", "the id of subtask %zu is longer than %d bytes" },
	{ "orch.plan.description_too_long", "子任务 %s 的描述超过 %d 个字符", "the description of subtask %s is longer than %d characters" },
	{ "orch.plan.name_too_long", "子任务 %s 的智能体或输入名称超过 %d 字节", "subtask %s names an agent or an input longer than %d bytes" },
	{ "orch.plan.order_name_too_long", "执行顺序的第 %zu 组中有超过 %d 字节的名称", "group %zu of executionOrder holds a name longer than %d bytes" },
	{ "orch.plan.bad_condition", "%s 的条件必须是对象 {input, path, test, value?}", "the condition of %s must be an object {input, path, test, value?}" },
	{ "orch.plan.condition_unknown_input", "%s 的条件引用的 %s 不是子任务", "the condition of %s names %s, which is no subtask" },
	{ "orch.plan.condition_not_input", "%s 的条件引用的 %s 不在它的输入中", "the condition of %s names %s, which is not among its inputs" },
	{ "orch.plan.condition_bad_path", "%s 的条件路径 %s 不是 JSON Pointer", "the condition of %s has the path %s, which is not a JSON Pointer" },
	{ "orch.plan.condition_bad_test", "%s 的条件测试 %s 未知（可用 exists、nonempty、empty、equals、not_equals、gt、lt）", "the condition of %s has an unknown test %s (exists, nonempty, empty, equals, not_equals, gt, lt)" },
	{ "orch.plan.condition_no_value", "%s 的条件测试 %s 需要 value", "the condition of %s: the test %s needs a value" },
	{ "orch.plan.condition_bad_value", "%s 的条件测试 %s 的 value 必须是数字", "the condition of %s: the test %s needs a number as its value" },
	{ "orch.plan.expect_shape", "%s 的 expect 必须是对象 {structured?: 布尔值, required?: 数组, types?: 对象, minItems?: 对象}", "the expect of %s must be an object {structured?: boolean, required?: array, types?: object, minItems?: object}" },
	{ "orch.plan.expect_unknown", "%s 的 expect 中有未知的成员 %s", "the expect of %s has an unknown member %s" },
	{ "orch.plan.expect_bad_place", "%s 的 expect 中 %s 不是成员名或 JSON Pointer", "the expect of %s names %s, which is neither a member name nor a JSON Pointer" },
	{ "orch.plan.expect_bad_type", "%s 的 expect 中 %s 的类型未知（可用 object、array、string、number、integer、boolean、null）", "the expect of %s gives %s an unknown type (object, array, string, number, integer, boolean, null)" },
	{ "orch.plan.expect_bad_min", "%s 的 expect 中 minItems 的 %s 必须是非负整数", "the expect of %s: minItems of %s must be an integer of 0 or more" },
	{ "orch.expect.no_structured", "回答中没有结构化数据（```json 代码块，或整个回答就是 JSON）", "the answer has no structured data (a ```json fence, or the whole answer as JSON)" },
	{ "orch.expect.missing", "结构化数据中缺少 %s", "the structured data has no %s" },
	{ "orch.expect.type", "%s 应为 %s，实际为 %s", "%s must be of type %s, not %s" },
	{ "orch.expect.not_array", "%s 应为数组，实际为 %s", "%s must be an array, not %s" },
	{ "orch.expect.min_items", "%s 至少需要 %lld 项，实际只有 %lld 项", "%s needs at least %lld items, and has %lld" },
	{ "orch.expect.repair", "你的回答没有通过检查：%s。请重新回答，并在 ```json 代码块中给出符合要求的结构化数据。", "Your answer did not pass its checks: %s. Answer again, with structured data that meets them in a ```json fence." },
	{ "orch.stage.bad_output", "输出不符合要求：%s", "the output is not as expected: %s" },
	{ "orch.stage.condition_not_met", "条件不满足（%s：%s %s），已跳过", "condition not met (%s: %s %s), skipped" },
	{ "orch.plan.nonstring", "非字符串的值", "a non-string" },
	{ "orch.error.bad_plan", "计划无法使用：%s", "the plan could not be used: %s" },
	{ "orch.error.replan_limit", "计划已被拒绝 %d 次", "the plan was rejected %d times" },
	{ "orch.error.stage_failed", "阶段 %s 失败，错误策略为中止", "stage %s failed and the error strategy is abort" },
	{ "orch.stage.failed", "阶段 %s 失败：%s", "stage %s failed: %s" },
	{ "orch.stage.max_iterations", "智能体在最后一轮仍在调用工具", "the agent was still calling tools at its last iteration" },
	{ "note.ask.more", "能再具体说说吗？", "Could you say a little more?" },
	{ "note.ask.topic", "想写哪方面的笔记？选一个方向，或者直接告诉我具体主题", "What should the note be about? Pick a direction, or tell me the topic" },
	{ "note.ask.audience", "这篇笔记主要写给谁看？", "Who is the note mainly for?" },
	{ "note.option.travel", "春日出游攻略", "A spring outing guide" },
	{ "note.option.food", "家常快手菜谱", "Quick home recipes" },
	{ "note.option.study", "高效学习方法", "Ways to study well" },
	{ "note.option.career", "职场效率技巧", "Getting more done at work" },
	{ "note.option.beauty", "护肤穿搭分享", "Skin care and outfits" },
	{ "note.option.fitness", "健身减脂打卡", "A fitness diary" },
	{ "note.option.tech", "数码好物测评", "Gadget reviews" },
	{ "note.option.home", "小家收纳改造", "Tidying a small home" },
	{ "note.option.students", "学生党", "Students" },
	{ "note.option.office", "上班族", "Office workers" },
	{ "note.option.beginners", "新手入门", "Beginners" },
	{ "note.option.parents", "宝妈宝爸", "Parents" },
	{ "note.option.experts", "资深爱好者", "Seasoned enthusiasts" },
	{ "note.intent", "图文笔记创作：%s", "Illustrated note: %s" },
	{ "note.type_by_words", "内容类型按主题的词判断", "The content type follows the topic's words" },
	{ "note.clarify", "需要补充信息（%s）：%s", "More information is needed (%s): %s" },
	{ "note.clarify.none", "没有补充信息，按现有需求继续", "Nothing was added: going on with the request as it is" },
	{ "note.clarify.topic", "已补充主题：%s", "Topic added: %s" },
	{ "note.clarify.audience", "已补充受众：%s", "Audience added: %s" },
	{ "note.rules_fallback", "模型的回答不可用（%s），改用本地规则", "The model's answer could not be used (%s): the local rules answer instead" },
	{ "note.rules_fallback.missing", "缺少字段", "fields missing" },
	{ "note.agent_failed", "%s没能完成（%s），交给主管处理", "%s could not finish (%s): the supervisor takes over" },
	{ "note.brief", "受众：%s；目标：%s；语气：%s；关键词：%s", "Audience: %s; goal: %s; tone: %s; keywords: %s" },
	{ "note.tool", "正在%s…", "%s…" },
	{ "tool.searchNotes", "搜索本地笔记", "Searching the local notes" },
	{ "tool.analyzeTopTags", "统计热门标签", "Counting the popular tags" },
	{ "tool.getTopTitles", "查看高赞标题", "Reading the most liked titles" },
	{ "tool.getTrendReport", "分析发布趋势", "Looking at the posting trend" },
	{ "tool.webSearch", "联网搜索", "Searching the web" },
	{ "tool.managePrompt", "整理创作要求", "Updating the brief" },
	{ "tool.recommendTemplates", "挑选笔记模板", "Choosing a note template" },
	{ "tool.askUser", "向你确认", "Asking you" },
	{ "tool.generateImage", "生成配图", "Drawing the picture" },
	{ "tool.generate_with_reference", "参考你的图片生成配图", "Drawing from your reference image" },
	{ "tool.generate_images_batch", "批量生成配图", "Drawing the pictures" },
	{ "tool.other", "使用工具", "Using a tool" },
	{ "note.ev.none", "本地笔记库没有与「%s」相关的笔记，这篇只按需求来写", "The local notes have nothing on \"%s\": this note is written from the brief" },
	{ "note.ev.found", "本地笔记库中与「%s」相关的笔记 %zu 篇，平均点赞 %lld", "Local notes about \"%s\": %zu, with %lld likes on average" },
	{ "note.ev.tag", "%s#%s（%lld 篇）", "%s#%s (%lld)" },
	{ "note.ev.tags", "最常用的标签：%s", "Most used tags: %s" },
	{ "note.ev.titles", "点赞最高的标题：《%s》（%lld 赞）；标题平均 %.1f 字，带数字的占 %.0f%%", "Most liked title: \"%s\" (%lld likes); titles average %.1f characters, %.0f%% with a number" },
	{ "note.ev.trend", "发布最集中的是 %lld 月（%lld 篇）；近一年平均点赞 %.0f，之前 %.0f（%s）", "Most notes were posted in month %lld (%lld); average likes %.0f in the last year, %.0f before (%s)" },
	{ "note.ev.web", "联网搜索：%s", "Web search: %s" },
	{ "note.ev.noweb", "联网搜索不可用，证据只来自本地笔记库", "Web search is not available: the evidence is from the local notes only" },
	{ "note.fallback", "%s调用模型失败（%s），改用本地规则兜底重跑", "%s could not reach the model (%s): running it again on the built-in rules" },
	{ "note.edit.invalid", "标题和正文不能为空，标签是文字列表", "The title and the body must not be empty, and the tags must be a list of words" },
	{ "note.ref.unreadable", "参考图无法读取（%s），按文字生成", "The reference image cannot be read (%s): generating from the words" },
	{ "note.ref.reading", "正在读取参考图 %zu/%zu", "Reading reference image %zu/%zu" },
	{ "note.ref.none", "没有参考图，按主题的默认风格规划", "No reference image: the topic's default style is planned" },
	{ "note.ref.done", "%s仅依据文件头与像素颜色统计（未使用视觉模型，画面内容未识别）", "%sFrom the file headers and pixel colours only (no vision model: what the pictures show was not recognised)" },
	{ "note.draft", "标题：%s\n\n正文：%s\n\n标签：%s", "Title: %s\n\nBody: %s\n\nTags: %s" },
	{ "note.draft.rules", "模型的文案格式不对，改用本地规则", "The model's draft was not in the expected form: the local rules write it" },
	{ "note.edit_failed", "修改没有生效：%s", "The edit was not applied: %s" },
	{ "note.draft.same", "这一稿和被退回的那一稿一样：「%s」没能做到%s。可以直接修改文案，或者继续", "This draft is the same as the one sent back: \"%s\" could not be done%s. Edit the draft directly, or go on" },
	{ "note.draft.same.none", "换一种写法", "write it another way" },
	{ "note.draft.same.kept", "（你写的部分原样保留）", " (what you wrote is kept as it is)" },
	/* A reject's feedback, item by item (wf/note/note_feedback.h). */
	{ "note.feedback.done", "反馈「%s」✓ %s", "Feedback \"%s\" ✓ %s" },
	{ "note.feedback.not", "反馈「%s」✗ 没有做到：%s", "Feedback \"%s\" ✗ not done: %s" },
	{ "note.fb.remove.done", "已按反馈删去「%s」", "taken out, as asked: %s" },
	{ "note.fb.remove.done_else", "你写的段落之外已删去「%s」", "taken out of everything but your own paragraphs: %s" },
	{ "note.fb.remove.topic", "主题本身就是「%s」，这些词没有删", "still in the note, because the topic is about it: %s" },
	{ "note.fb.remove.never", "「%s」本来就不在文案里，这一稿也没有写", "\"%s\" was not in the draft to begin with, and this one does not have it either" },
	{ "note.fb.remove.locked", "「%s」在你写的段落里（「%s」），按你的原文保留，没有删；要删请直接修改那一段", "\"%s\" is in a paragraph you wrote (\"%s\"), kept word for word and not taken out; edit that paragraph to remove it" },
	{ "note.fb.remove.stuck", "「%s」还在文案里，没能去掉", "\"%s\" is still in the draft: it could not be taken out" },
	{ "note.fb.title.set", "标题改成了「%s」", "the title is now \"%s\"" },
	{ "note.fb.title.cut", "标题改成了「%s」（原话超过 %zu 字，在词的边界截短）", "the title is now \"%s\" (cut at a word boundary to %zu characters)" },
	{ "note.fb.title.already", "标题已经是「%s」", "the title is already \"%s\"" },
	{ "note.fb.title.long", "「%s」超过 %zu 字，又截不出完整的词，标题没有改；可以在下一步直接改", "\"%s\" is longer than %zu characters and cannot be cut at a word boundary: the title is unchanged; edit it at the next step" },
	{ "note.fb.title.shorter", "标题缩短为「%s」", "the title is shorter: \"%s\"" },
	{ "note.fb.title.already_short", "标题「%s」已经比上一稿的短", "the title \"%s\" is already shorter than the one before" },
	{ "note.fb.title.noshorter", "标题「%s」已经很短，再截会断开词语，没有改；可以在下一步直接改", "the title \"%s\" is already short and cutting it would break a word: unchanged; edit it at the next step" },
	{ "note.fb.title.add", "标题加上了「%s」：「%s」", "\"%s\" is in the title now: \"%s\"" },
	{ "note.fb.title.noturn", "标题「%s」想不出别的说法（不重复、不超长），没有改；可以在下一步直接改", "no other way to say the title \"%s\" fits (new, short enough): unchanged; edit it at the next step" },
	{ "note.fb.title.has", "标题里已经有「%s」", "the title already has \"%s\"" },
	{ "note.fb.shorter.done", "正文从 %zu 字减到 %zu 字（删去 %zu 处）", "the body went from %zu to %zu characters (%zu cuts)" },
	{ "note.fb.shorter.already", "正文 %zu 字，比上一稿的 %zu 字短", "the body has %zu characters, fewer than the %zu of the draft before" },
	{ "note.fb.shorter.none", "正文没能再短：剩下的是你写的段落、这次新加的内容和每节最后一条要点", "the body could not be cut further: what is left is your own text, what this round added and one point per section" },
	{ "note.fb.longer.done", "正文从 %zu 字加到 %zu 字：补了一节「%s」（出自笔记《%s》）", "the body went from %zu to %zu characters: a section \"%s\" was added (from the notes \"%s\")" },
	{ "note.fb.longer.already", "正文 %zu 字，比上一稿的 %zu 字长", "the body has %zu characters, more than the %zu of the draft before" },
	{ "note.fb.longer.none", "笔记库里没有更多关于这个主题的内容，正文没有加长；可以在下一步直接补充", "the notes have nothing more on this topic, so the body is not longer; add to it at the next step" },
	{ "note.fb.add.done", "加了一节「%s」，内容出自笔记《%s》", "a section \"%s\" was added, from the notes \"%s\"" },
	{ "note.fb.add.already", "这一稿已经写到了「%s」", "this draft already covers \"%s\"" },
	{ "note.fb.add.none", "笔记库里没有关于「%s」的内容，这一稿没有补上，可以在下一步直接写进去", "the notes have nothing on \"%s\", so this draft does not add it; write it in at the next step" },
	{ "note.fb.more.done", "关于「%s」多写了 %zu 条，出自笔记《%s》", "on \"%s\", %zu more lines, from the notes \"%s\"" },
	{ "note.fb.more.already", "这一稿关于「%s」的内容比上一稿多", "this draft says more about \"%s\" than the one before" },
	{ "note.fb.tone.done", "语气改得更%s：结尾换成「%s」%s", "the tone is more %s: the closing line is now \"%s\"%s" },
	{ "note.fb.tone.already", "结尾已经是%s的语气：「%s」", "the closing line is already %s: \"%s\"" },
	{ "note.fb.tone.marked", "，小标题末尾加了%s", ", and the headings end in%s" },
	{ "note.fb.tone.unmarked", "，小标题去掉了表情", ", and the headings have no emoji" },
	{ "note.fb.audience.done", "开头写明了适合%s", "the opening now says it is for %s" },
	{ "note.fb.audience.already", "开头已经写明适合%s", "the opening already says it is for %s" },
	{ "note.fb.format.list", "每节的要点改成了编号清单（①②③）%s", "each section's points are now a numbered list%s" },
	{ "note.fb.format.steps", "每节的要点改成了分步骤（第1步、第2步…）%s", "each section's points are now steps (Step 1, Step 2…)%s" },
	{ "note.fb.format.kept", "（你写的段落保持原样）", " (your own paragraphs are kept as they are)" },
	{ "note.fb.format.already", "这一稿的要点已经是这个格式", "this draft's points already have that form" },
	{ "note.fb.format.table", "笔记正文是纯文本，放不下表格，这一稿没有改；可以改说「用清单的形式」", "a note's body is plain text and cannot hold a table, so this draft is unchanged; ask for a list instead" },
	{ "note.fb.format.locked", "要点都在你写的段落里，按原文保留，没有改格式", "the points are all in paragraphs you wrote, kept word for word: the format is unchanged" },
	{ "note.fb.format.none", "这一稿没有分节的要点可以编号，格式没有改", "this draft has no sections with points to number: the format is unchanged" },
	{ "note.fb.other", "「%s」看不出要怎么改，这一稿没有照做；可以在下一步直接修改文案", "it is not clear what \"%s\" asks to change, so this draft does not do it; edit the draft directly at the next step" },
	{ "note.fb.other.model", "「%s」交给了写作模型，没法自动核对有没有做到，请在这一稿里看一下", "\"%s\" went to the writing model, and whether it was done cannot be checked: see this draft" },
	{ "note.fb.undone", "核对这一稿时发现「%s」没有做到", "checking this draft, \"%s\" turned out not to be done" },
	{ "note.ask.quality", "审核没有通过（%s）。要按现在的样子发布这篇笔记吗？", "The review did not pass (%s). Publish this note as it is?" },
	{ "note.quality.publish", "按现在的样子发布", "Publish as it is" },
	{ "note.quality.stop", "不发布，结束", "Stop without publishing" },
	{ "note.quality.paused", "审核改了 %lld 轮仍未通过：这是得分最高的一稿，发布与否由你决定", "The review did not pass after %lld rounds: here is the best-scored draft, and publishing it is your call" },
	{ "note.quality.paused.stuck", "审核没有通过，但写作专家给不出和之前不同的一稿（你写的部分原样保留）：这是得分最高的一稿，发布与否由你决定", "The review did not pass, but the writer has no draft other than the ones before (your own text is kept as you wrote it): here is the best-scored draft, and publishing it is your call" },
	{ "note.quality.paused.rejects", "这一步已被退回 %lld 次：这是目前最好的一稿，发布与否由你决定", "This step was sent back %lld times: here is the best draft so far, and publishing it is your call" },
	{ "note.quality.rejects", "已被退回 %d 次", "sent back %d times" },
	{ "note.quality.low", "综合评分未达标", "the overall score is below the bar" },
	{ "note.quality.published", "已按你的决定发布：审核未通过，笔记按现在的样子发布", "Published as you decided: the review did not pass, and the note is published as it is" },
	{ "note.quality.stopped", "你选择不发布，流程结束，草稿已保留", "You chose not to publish: the workflow stopped, and the draft is kept" },
	{ "note.quality.timeout", "等待超时，默认不发布，流程结束，草稿已保留", "The pause timed out: by default nothing is published; the workflow stopped, and the draft is kept" },
	{ "note.route.published", "审核未通过，按你的决定发布", "The review did not pass: published as you decided" },
	{ "note.draft.confirmed", "文案已确认", "The draft is confirmed" },
	{ "note.draft.limit", "文案已重写 3 次仍未通过，流程结束", "The draft was rewritten three times without approval: the workflow ended" },
	{ "note.layout.rules", "模型的版式不完整，改用本地规则", "The model's layout was incomplete: the local rules plan it" },
	{ "note.layout", "版式：%s 画布，%zu 张配图，正文 %zu 段", "Layout: %s canvas, %zu images, %zu paragraphs" },
	{ "note.plans.rules", "模型的图片规划不完整，改用本地规则", "The model's image plan was incomplete: the local rules plan the images" },
	{ "note.plans", "已规划 %zu 张配图，每张对应一个段落", "%zu images planned, one for each paragraph" },
	{ "note.plans.edit_failed", "修改没有生效：每张图需要一个提示词（prompt），最多 %d 张", "The edit was not applied: every image needs a prompt, at most %d images" },
	{ "note.plans.edited", "已按修改更新图片规划（%zu 张）", "The image plan is updated as edited (%zu images)" },
	{ "note.plans.confirmed", "图片规划已确认", "The image plan is confirmed" },
	{ "note.plans.limit", "图片规划已重做 3 次仍未通过，流程结束", "The image plan was redone three times without approval: the workflow ended" },
	/* The image plans pause: each item of a reject's feedback, made or declined. */
	{ "note.plans.fb.recomposed", "你要的改动在上一版里已经是这样了，这一版换了构图，和上一版不同",
	  "What you asked for was already so in the plans shown; these plans change the compositions, so they differ" },
	{ "note.plans.fb.verb.move", "调整顺序", "moved" },
	{ "note.plans.fb.verb.drop", "删除", "removed" },
	{ "note.plans.fb.verb.describe", "改画", "redrawn" },
	{ "note.plans.fb.no_picture", "没有第%d张图（共%zu张），无法%s", "There is no picture %d (there are %zu): it cannot be %s" },
	{ "note.plans.fb.gone", "第%d张图已经去掉了，无法%s", "Picture %d was already removed: it cannot be %s" },
	{ "note.plans.fb.no_place", "没有第%d个位置（共%zu张），图片没有移动", "There is no place %d (there are %zu pictures): the picture was not moved" },
	{ "note.plans.fb.swapped", "已把第%d张和第%d张图对调", "Pictures %d and %d swapped" },
	{ "note.plans.fb.cover", "已把第%d张图换作封面（第%d张）", "Picture %d is now the cover (place %d)" },
	{ "note.plans.fb.moved", "已把第%d张图移到第%d张", "Picture %d moved to place %d" },
	{ "note.plans.fb.dropped", "已去掉第%d张图", "Picture %d removed" },
	{ "note.plans.fb.last_one", "只剩一张图了，不能再删（笔记至少要有一张封面）", "Only one picture is left: it stays (a note needs a cover)" },
	{ "note.plans.fb.described", "第%d张图改画：%s", "Picture %d now shows: %s" },
	{ "note.plans.fb.styled", "整组配图改为%s风格", "Every picture is now in %s style" },
	{ "note.plans.fb.unstyled", "整组配图不再用%s风格", "No picture is in %s style now" },
	{ "note.plans.fb.unstyle_failed", "提示词里的%s风格没能全部去掉，请直接修改提示词", "The %s style could not be taken out of every prompt: edit the prompts directly" },
	{ "note.plans.fb.toned", "整组配图调整为%s", "Every picture now has %s" },
	{ "note.plans.fb.max", "最多 %d 张配图，不能再加", "A note has at most %d pictures: none was added" },
	{ "note.plans.fb.no_paragraph", "每个段落都已有配图，没有段落可以再加一张", "Every paragraph already has a picture: there is none to add one for" },
	{ "note.plans.fb.added", "已加 %d 张配图（现在共 %zu 张），对应段落「%s」", "%d picture(s) added (%zu in all), for \"%s\"" },
	{ "note.plans.fb.added_already", "已加了 %d 张配图", "%d picture(s) added" },
	{ "note.plans.fb.total_range", "配图要在 1 到 %d 张之间，张数没有改", "A note has 1 to %d pictures: the number was not changed" },
	{ "note.plans.fb.total_same", "现在正好是 %d 张图，不用改", "There are %d pictures already" },
	{ "note.plans.fb.kept", "只保留前 %d 张图，去掉了后面 %d 张", "Kept the first %d pictures, removed the last %d" },
	{ "note.plans.fb.other", "「%s」没有说要怎么改哪张图，这条没有照做（可以说：换顺序、去掉某张、某张改画什么、换风格或色调、加减张数）", "\"%s\" does not say how to change which picture, so it was not applied (you can move, remove or redraw a picture, change the style or tone, or the number of pictures)" },
	{ "note.clarify.vague", "请求没有说明写什么主题", "The request does not say what the note is about" },
	{ "note.clarify.topic_default", "没有说具体写什么，先按「%s」来写", "No topic was given: the note is about \"%s\"" },
	{ "note.images.start", "开始生成 %zu 张配图", "Generating %zu images" },
	{ "note.images.failed", "配图完成 %zu/%zu 张，%zu 张失败，交给审核判断", "%zu of %zu images done, %zu failed: the review decides" },
	{ "note.images.done", "配图完成 %zu/%zu 张", "%zu of %zu images done" },
	{ "note.review.passed", "质量审核通过：综合 %.2f，笔记完成", "The review passed: overall %.2f, the note is done" },
	{ "note.review.loop", "质量回流%s：%s %.2f 未达标%s，回到%s（第 %lld/%lld 轮）", "Back for another round%s: %s %.2f is below the bar%s, back to %s (round %lld of %lld)" },
	{ "note.review.loop.rule", "（规则检查：%s）", " (the rules' checks: %s)" },
	{ "note.review.loop.approved", "（审核口头通过但评分未达标）", " (approved in words but not in scores)" },
	{ "note.review.limit", "质量审核未通过，已达到最大迭代次数（maxIterations），流程终止", "The review did not pass within the maximum number of rounds (maxIterations): the workflow stopped" },
	/* The review's reasons and suggestions (note_rules_review.c). */
	{ "note.review.dim.infoDensity", "信息密度不够（%s %.2f）", "Not enough information (%s %.2f)" },
	{ "note.review.dim.readability", "可读性差（%s %.2f）", "Hard to read (%s %.2f)" },
	{ "note.review.dim.platformFit", "不够贴合平台（%s %.2f）", "Not a good fit for the platform (%s %.2f)" },
	{ "note.review.dim.textImageAlignment", "图文对应弱（%s %.2f）", "The pictures do not match the text (%s %.2f)" },
	{ "note.review.dim.styleConsistency", "配图风格不统一（%s %.2f）", "The pictures are in different styles (%s %.2f)" },
	{ "note.review.dim.imageCompleteness", "有配图生成失败（%s %.2f）", "Some pictures were not made (%s %.2f)" },
	{ "note.review.hint.infoDensity", "补充具体的数字、步骤或亲身细节", "Add concrete numbers, steps or first-hand details" },
	{ "note.review.hint.readability", "缩短长句，每段控制在 150 字以内，加小标题", "Shorten long sentences, keep paragraphs short and add headings" },
	{ "note.review.hint.platformFit", "标题控制在 20 字以内并带上关键词，标签 3 到 8 个，结尾加一句互动", "Keep the title short with a keyword in it, use 3 to 8 tags and end with a question for readers" },
	{ "note.review.hint.textImageAlignment", "让每张配图对应一个段落，提示词写出段落的主体", "Tie each picture to a paragraph and name the paragraph's subject in its prompt" },
	{ "note.review.hint.styleConsistency", "统一所有配图的风格和配色", "Use one style and one palette for every picture" },
	{ "note.review.hint.imageCompleteness", "重新生成失败的配图", "Make the missing pictures again" },
	{ "note.review.verdict.pass", "各维度达标，可以发布", "Every dimension passes: ready to publish" },
	{ "note.review.verdict.fail", "有维度未达标，建议回到对应环节修改", "Some dimensions are below the bar: back to the stage that owns them" },
	{ "note.review.offtopic", "内容偏离主题「%s」（主题词命中 %.2f）", "Off the topic \"%s\" (share of the topic's words found: %.2f)" },
	{ "note.review.offtopic.hint", "围绕主题重写，标题和正文都要写到主题本身", "Rewrite it around the topic: the title and the body should name it" },
	{ "note.review.offtopic.hint.mine", "你写的段落原样保留；可以补上写「%s」本身的内容，或者自己改写", "Your paragraphs are kept as you wrote them; add text on \"%s\" itself, or rewrite them yourself" },
	{ "note.review.sections.offtopic", "这几节偏离主题「%s」，没写到主题本身：%s", "Off the topic \"%s\": these sections never get to it: %s" },
	{ "note.review.sections.offtopic.hint", "把这几节换成写「%s」本身的内容：%s", "Replace these sections with ones on \"%s\" itself: %s" },
	{ "note.review.sections.hollow", "这几节空泛，没有具体的物品、数字或步骤：%s", "Hollow sections, with no concrete item, number or step: %s" },
	{ "note.review.sections.hollow.hint", "给这几节补上具体的物品、用量、价格、时间或步骤：%s", "Give these sections concrete items, amounts, prices, times or steps: %s" },
	{ "note.review.mine.offtopic", "你写的段落偏离主题「%s」：%s（原样保留）", "Your own paragraphs are off the topic \"%s\": %s (kept as you wrote them)" },
	{ "note.review.mine.hollow", "你写的段落没有具体的物品、数字或步骤：%s（原样保留）", "Your own paragraphs have no concrete item, number or step: %s (kept as you wrote them)" },
	{ "note.review.mine.hint", "你写的段落不会被替换；想让它们更好，可以自己补上具体的物品、数字或步骤，或写到主题本身：%s", "Your paragraphs are not replaced; to make them better, you could add items, numbers or steps yourself, or bring them to the topic: %s" },
	{ "note.review.repeated", "有 %zu 处重复：%s", "%zu repeated lines: %s" },
	{ "note.review.repeated.hint", "删去重复的句子，每节只讲一件事", "Cut the repeated lines: one point a section" },
	{ "note.review.repeated.mine", "你写的段落里有重复：%s（原样保留，可以自己删去一处）", "Your own paragraphs repeat a line: %s (kept as you wrote them; you could cut one)" },
	{ "note.review.banned", "与修改意见矛盾：仍提到「%s」", "Against your feedback: it still mentions \"%s\"" },
	{ "note.review.banned.hint", "按修改意见删去不要的内容，标签里也不要出现", "Take out what the feedback asked to leave out, in the tags too" },
	{ "note.review.shorter", "与修改意见矛盾：你说「%s」，这一稿 %lld 字，比退回的那一稿（%lld 字）还长", "Against your feedback: you said \"%s\", and this draft has %lld characters, more than the one you sent back (%lld)" },
	{ "note.review.shorter.hint", "按修改意见写短：每节只留最有用的一两句", "Cut it as you asked: keep the one or two most useful lines of each section" },
	{ "note.review.longer", "与修改意见矛盾：你说「%s」，这一稿 %lld 字，比退回的那一稿（%lld 字）还短", "Against your feedback: you said \"%s\", and this draft has %lld characters, fewer than the one you sent back (%lld)" },
	{ "note.review.longer.hint", "按修改意见写长一些：给每节补上具体的做法和例子", "Make it longer as you asked: give each section concrete steps and examples" },
	{ "note.review.list", "与修改意见矛盾：你说「%s」，这一稿没有列成清单", "Against your feedback: you said \"%s\", and this draft has no list" },
	{ "note.review.list.hint", "按修改意见把要点列成清单，一行一条", "Make the points a list, one a line, as you asked" },
	{ "note.route.next", "%s完成，下一步：%s", "Done with %s; next: %s" },
	{ "note.route.rerun", "路由建议重跑%s：%s", "The router suggests %s again: %s" },
	{ "note.route.end", "质量审核通过，笔记完成", "The review passed: the note is done" },
	{ "stage.intake", "需求识别", "understanding the request" },
	{ "stage.brief", "需求分析", "the brief" },
	{ "stage.research", "趋势研究", "research" },
	{ "stage.reference", "参考图解析", "reading the reference images" },
	{ "stage.writing", "文案创作", "writing" },
	{ "stage.layout", "版式规划", "the layout" },
	{ "stage.image_planning", "图片规划", "planning the images" },
	{ "stage.image_generation", "图片生成", "making the images" },
	{ "stage.review", "质量审核", "the review" },
	{ "note.rerun_failed", "兜底重跑后仍然失败，流程终止", "The step failed again after a second run: the workflow stopped" },
	{ "note.no_rerun", "失败的环节无法重跑，流程终止", "The failed step cannot be run again: the workflow stopped" },
	/* The graph_edit workflow. */
	{ "agent.retrieve", "节点检索", "The node finder" },
	{ "agent.plan", "编辑规划", "The edit planner" },
	{ "agent.apply", "修改校验", "The patch checker" },
	{ "agent.publish", "画布更新", "The canvas updater" },
	{ "agent.edit", "画布编辑", "The canvas editor" },
	{ "agent.history", "版本历史", "The version history" },
	{ "graph.retrieve.found", "找到相关节点（%d 个，%s）：%s", "relevant nodes found (%d, %s): %s" },
	{ "graph.retrieve.none", "节点库里没有与请求相关的节点（%s）", "no node in the library matches the request (%s)" },
	{ "graph.plan.done", "规划了 %d 个修改操作", "%d operations planned" },
	{ "graph.plan.repair", "修改没有通过校验（发现问题 %d 处），请模型修正一次", "the patch did not pass the checks (problems found: %d): asking the model to correct it once" },
	{ "graph.plan.nothing", "这次没有需要修改的地方", "There is nothing to change this time" },
	{ "graph.ask.patch", "要把这些修改应用到工作流吗？", "Apply these changes to the workflow?" },
	{ "graph.confirm.rejected", "已收到你的意见，重新规划修改", "Your feedback is received: planning the changes again" },
	{ "graph.modify.invalid", "修改后的补丁必须是一个操作数组，请重新编辑", "The edited patch must be an array of operations: edit it again" },
	{ "graph.rejected", "修改没有通过校验，工作流保持不变：%s（共发现问题 %d 处）", "The changes did not pass the checks, so the workflow is unchanged: %s (problems found: %d)" },
	{ "graph.sum.node.one", "%d 个节点", "%d node" },
	{ "graph.sum.node.many", "%d 个节点", "%d nodes" },
	{ "graph.sum.edge.one", "%d 条连线", "%d edge" },
	{ "graph.sum.edge.many", "%d 条连线", "%d edges" },
	{ "graph.sum.added", "添加了 %s", "added %s" },
	{ "graph.sum.removed", "删除了 %s", "removed %s" },
	{ "graph.sum.changed", "修改了 %s", "changed %s" },
	{ "graph.sum.with", "%s和 %s", "%s and %s" },
	{ "graph.sum.then", "%s，并%s", "%s, and %s" },
	{ "graph.sum.none", "工作流没有变化", "no change to the workflow" },
	{ "graph.undo.done", "已撤销：恢复为第 %d 版", "undone: back to version %d" },
	{ "graph.redo.done", "已重做：恢复为第 %d 版", "redone: forward to version %d" },
	{ "graph.undo.none", "没有可以撤销的修改", "There is nothing to undo" },
	{ "graph.redo.none", "没有可以重做的修改", "There is nothing to redo" },
	{ "graph.version.lost", "这个版本已经无法读取", "That version can no longer be read" },
	{ "error.plan_failed", "模型没能给出修改方案，请稍后再试", "The model could not plan the changes: try again shortly" },
	{ "error.library_unavailable", "节点库暂时不可用", "The node library is not available" },
};

#define MSG_N (sizeof msg_defs / sizeof msg_defs[0])

int msg_lang_ok(const char *lang)
{
	return lang && (strcmp(lang, "zh") == 0 || strcmp(lang, "en") == 0);
}

/* The catalogue's entries by id, sorted once per process on first use,
 * so a lookup is a binary search rather than a walk of the table. */
static const struct msg_def *msg_index[MSG_N];
static int msg_indexed;

static int msg_cmp(const void *a, const void *b)
{
	return strcmp((*(const struct msg_def *const *)a)->id, (*(const struct msg_def *const *)b)->id);
}

static int msg_key_cmp(const void *key, const void *e)
{
	return strcmp(key, (*(const struct msg_def *const *)e)->id);
}

static void msg_index_build(void)
{
	for (size_t i = 0; i < MSG_N; i++)
		msg_index[i] = &msg_defs[i];
	/* Every id is listed once (tests/unit/t_msg.c checks). */
	qsort(msg_index, MSG_N, sizeof msg_index[0], msg_cmp);
	msg_indexed = 1;
}

const char *msg_find(const char *lang, const char *id)
{
	int en = lang && strcmp(lang, "en") == 0;
	const struct msg_def *const *d;

	if (id == NULL)
		return NULL;
	if (!msg_indexed)
		msg_index_build();
	d = bsearch(id, msg_index, MSG_N, sizeof msg_index[0], msg_key_cmp);
	return d == NULL ? NULL : en ? (*d)->en : (*d)->zh;
}

const char *msg_get(const char *lang, const char *id)
{
	const char *s = msg_find(lang, id);

	return s ? s : id ? id : "";
}

char *msg_fmt(const char *lang, const char *id, ...)
{
	va_list ap;
	char *s = NULL;

	va_start(ap, id);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	if (vasprintf(&s, msg_get(lang, id), ap) < 0)
		s = NULL;
#pragma GCC diagnostic pop
	va_end(ap);
	return s ? s : strdup("");
}

const char *msg_agent(const char *lang, const char *node)
{
	char id[96];
	const char *s;

	snprintf(id, sizeof id, "agent.%s", node ? node : "");
	s = msg_find(lang, id);
	return s ? s : node ? node : "";
}

const char *msg_error(const char *lang, const char *code)
{
	char id[96];
	const char *s;

	snprintf(id, sizeof id, "error.%s", code ? code : "");
	s = msg_find(lang, id);
	return s ? s : msg_get(lang, "error.node_failed");
}

const struct msg_def *msg_table(size_t *n)
{
	*n = MSG_N;
	return msg_defs;
}
