/* The image workflow's words, in Chinese and in English: the names of its nodes
 * (agent.<node>), its error codes (error.<code>) and everything else it
 * writes for people, added to the message catalogue (text/msg.h) when the
 * workflow is registered. */
#include "config.h"
#include "text/msg.h"
#include "wf/image/image.h"

const struct msg_def image_msgs[] = {
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
	{ "image.adjust.reason", "按页面上的调整：%s", "an adjustment made on the page: %s" },
	{ "image.said.regenerate", "重新生成上一张图", "Draw the last picture again" },
	{ "image.said.restyle", "换成「%s」风格", "In the style %s" },
	{ "image.said.params", "再调整一下：%s", "Adjust it: %s" },
	{ "image.said.strength", "风格强度 %d", "style strength %d" },
	{ "image.said.brighter", "更亮", "brighter" },
	{ "image.said.darker", "更暗", "darker" },
	{ "agent.planner", "意图分析师", "The intent planner" },
	{ "agent.rag", "风格检索", "The style finder" },
	{ "agent.executor", "绘图专家", "The illustrator" },
	{ "agent.critic", "质量审查员", "The critic" },
	{ "agent.genui", "界面助手", "The interface assistant" },
	{ "agent.error_handler", "错误处理", "The error handler" },
};

const size_t image_nmsgs = sizeof image_msgs / sizeof image_msgs[0];

_Static_assert(sizeof image_msgs / sizeof image_msgs[0] == IMAGE_NMSGS, "IMAGE_NMSGS counts the rows of image_msgs");
