// The page's words in Chinese and English, and their lookup. Elements made
// with tx()/setT() remember their key, so switching the language rewrites
// them in place without rebuilding anything. Text from the server is never
// translated or taken apart: the page picks its own words by the codes
// events carry (an option's id, an error's code).
//
// Every word has one owner. The words every view shares are here: the
// app's shell, the recent list, the connection, errors, pauses, the steps,
// field and node names. A view's own words are in its i18n-<view>.js, which
// the view adds with addWords() as its module loads, before anything is
// shown. The words the server's catalogue (src/text/msg.c and each
// workflow's *_msg.c) also writes are the server's: the page's copy of
// them says the same (tests/browser checks), and no other word of the
// page takes an id of the server's.
const en = {
  'app.tag': 'Creative agents on your own server',
  'app.skip': 'Skip to the workspace',
  'nav.label': 'Studios',
  'nav.image': 'Image studio',
  'nav.note': 'Note writer',
  'lang.switch': '中文',
  'lang.label': 'Switch the page to Chinese',
  'threads.title': 'Recent',
  'threads.empty': 'Nothing yet. What you start here is listed, in this browser only.',
  'threads.refresh': 'Update',
  'threads.image': 'Image',
  'threads.note': 'Note',
  'threads.untitled': '(untitled)',
  'threads.forget': 'Remove from the list',
  'threads.search': 'Search conversations',
  'threads.none': 'No conversation has these words.',
  'threads.rename': 'Rename',
  'threads.pin': 'Pin to the top',
  'threads.unpin': 'Unpin',
  'threads.toggle': 'Recent conversations',
  'status.running': 'running',
  'status.paused': 'waiting for you',
  'status.done': 'done',
  'status.error': 'failed',
  'status.aborted': 'stopped',
  'status.expired': 'expired',
  'status.unknown': '…',
  'health.checking': 'Checking the server…',
  'health.ok': 'Server running',
  'health.degraded': 'Server running, but its storage is unavailable',
  'health.down': 'The server does not answer. Is it running?',
  'health.offline': 'This device is offline: what you do is sent when the network is back.',
  'health.again': 'Check again',
  'health.details': 'Details',
  'health.version': 'Version',
  'health.worker': 'Worker',
  'health.store': 'Store',
  'health.unreachable': 'unreachable',
  'stream.idle': 'Ready',
  'stream.connecting': 'Connecting…',
  'stream.streaming': 'Live',
  'stream.reconnecting': 'Connection lost — reconnecting (attempt {n})…',
  'stream.offline': 'Offline — continues when the network is back',
  'stream.paused': 'Waiting for you',
  'stream.done': 'Done',
  'stream.failed': 'Stopped',
  'stream.refused': 'Not sent',
  'stream.stopped': 'Stopped',
  'stream.retry': 'Try again',
  'stream.follow': 'Follow it',
  'turn.unsent': 'Not sent: the server is not answering.',
  'turn.unsent.next': 'It is kept here and goes as soon as the server answers again.',
  'turn.send_now': 'Send now',
  'state.running': 'running',
  'state.done': 'done',
  'state.failed': 'failed',
  'state.stopped': 'stopped',
  'tl.input': 'Input',
  'tl.output': 'Result',
  'tl.decision': 'Decision:',
  'tl.intent_detected': 'Intent:',
  'tl.content_type_detected': 'Content type:',
  'action.approve': 'Approve',
  'action.reject': 'Reject',
  'action.modify': 'Edit',
  'action.send': 'Send',
  'action.answer': 'Send the answer',
  'action.skip': 'Skip, go on as it is',
  'action.unknown': 'answered',
  'node.workflow': 'Workflow',
  'node.input': 'Your request',
  'node.planner': 'Planner',
  'node.rag': 'Style retrieval',
  'node.executor': 'Executor',
  'node.critic': 'Critic',
  'node.genui': 'Result',
  'node.error_handler': 'Error handling',
  'node.supervisor': 'Supervisor',
  'node.brief_compiler': 'Brief',
  'node.research_evidence': 'Research',
  'node.reference_intelligence': 'Reference images',
  'node.writer': 'Writer',
  'node.layout_planner': 'Layout',
  'node.image_planner': 'Image plans',
  'node.image': 'Images',
  'node.review': 'Review',
  'action.regenerate_btn': 'Regenerate',
  'action.adjust_btn': 'Adjust',
  'action.inpaint_btn': 'Repaint a region',
  'pause.title': 'Your decision is needed',
  'pause.kind.content': 'the text',
  'pause.kind.image_plans': 'the image plans',
  'pause.kind.other': 'a question',
  'pause.kind.clarification': 'a question',
  'pause.pickone': 'Choose one',
  'pause.pickmany': 'Choose any',
  'pause.feedback': 'Note for the agents (optional)',
  'pause.feedback.ph': 'e.g. shorter, warmer, mention the price',
  'pause.save': 'Save and continue',
  'pause.cancel': 'Cancel editing',
  'pause.deadline': 'If nobody answers, the default is taken at {time}.',
  'pause.nochange': 'Nothing was changed. Edit a field, or choose Approve.',
  'pause.sending': 'Sending your answer…',
  'pause.answered.approve': 'Approved: went on with it.',
  'pause.answered.reject': 'Rejected: asked for a new version.',
  'pause.answered.modify': 'Answered: edited and continued.',
  'pause.answered.other': 'Answered.',
  'pause.badnumber': '{field} must be a number.',
  'pause.badjson': '{field} is not valid JSON.',
  'pause.tagshint': 'Separate tags with commas.',
  'pause.plan': 'Image {n}',
  'pause.role.cover': 'Cover picture',
  'pause.role.content': 'Picture in the text',
  'pause.role.summary': 'Closing picture',
  'pause.paragraph': 'Goes with paragraph {n}',
  'pause.kind.quality': 'publish or stop',
  'pause.changes': 'What changed since the draft sent back:',
  'pause.changes.added': '+ {text}',
  'pause.changes.removed': '− {text}',
  'pause.changes.changed': '~ {text}',
  'pause.changes.title': '~ Title: {text}',
  'pause.changes.none': 'Nothing: the writer could not do what was asked (see its message).',
  'pause.changes.kept': 'What you wrote is kept as it is ({n} paragraphs).',
  'pause.changes.why': 'Why it came back: {text}',
  'pause.feedback.items': 'Your feedback, item by item:',
  'pause.feedback.done': '✓ "{item}": {text}',
  'pause.feedback.not': '✗ "{item}" not done: {text}',
  'field.title': 'Title',
  'field.body': 'Body',
  'field.tags': 'Tags',
  'field.imagePlans': 'Image plans',
  'field.prompt': 'Prompt',
  'field.audience': 'Audience',
  'field.goal': 'Goal',
  'field.constraints': 'Constraints',
  'field.tone': 'Tone',
  'field.keywords': 'Keywords',
  'field.overall': 'Overall',
  'field.score': 'Score',
  'field.passed': 'Passed',
  'field.style': 'Style',
  'field.aspectRatio': 'Aspect ratio',
  'field.description': 'Description',
  'field.caption': 'Caption',
  'field.purpose': 'Purpose',
  'field.role': 'Role',
  'field.source': 'Source',
  'field.approved': 'Approved',
  'field.failReasons': 'Why it did not pass',
  'field.sequence': 'No.',
  'field.iteration': 'Round',
  'field.infoDensity': 'Information density',
  'field.readability': 'Readability',
  'field.platformFit': 'Platform fit',
  'field.textImageAlignment': 'Text and images agree',
  'field.styleConsistency': 'Consistent style',
  'field.imageCompleteness': 'Images complete',
  'value.yes': 'yes',
  'value.no': 'no',
  'err.details': 'What the server said',
  'err.network': 'The server could not be reached.',
  'err.network.next': 'Check the network connection, then try again.',
  'err.lost': 'The connection broke before the server confirmed the request.',
  'err.lost.next': 'Try again; if it was received, it shows up in the list of recent conversations.',
  'err.unknown_workflow': 'This server does not offer this studio yet.',
  'err.unknown_workflow.next': 'Ask the site’s administrator to update AiVista, or use the other studio.',
  'err.bad_request': 'The server did not accept the request.',
  'err.bad_request.next': 'Check what you entered (the server’s words are below) and try again.',
  'err.bad_json': 'The request was garbled on the way.',
  'err.bad_json.next': 'Reload the page and try again.',
  'err.json_too_deep': 'The request was too complex.',
  'err.json_too_deep.next': 'Simplify what you entered and try again.',
  'err.bad_content_length': 'The request was cut short on the way.',
  'err.bad_content_length.next': 'Try again.',
  'err.bad_event_id': 'The page lost its place in the conversation.',
  'err.bad_event_id.next': 'Reload the page.',
  'err.bad_thread_id': 'This conversation’s link is not valid on this server.',
  'err.bad_thread_id.next': 'Open it from the list of recent conversations, or start a new one.',
  'err.not_found': 'The server does not know that address.',
  'err.not_found.next': 'The site may be set up differently: ask its administrator.',
  'err.thread_not_found': 'This conversation no longer exists on the server.',
  'err.thread_not_found.next': 'Start a new one.',
  'err.thread_expired': 'This conversation expired after a time without activity.',
  'err.thread_expired.next': 'Start a new one; its results are no longer kept.',
  'err.method_not_allowed': 'The server refused this kind of request.',
  'err.method_not_allowed.next': 'Reload the page; the app may be out of date.',
  'err.thread_busy': 'This conversation is still working on something.',
  'err.thread_busy.next': 'Wait until it has finished, then send again.',
  'err.not_paused': 'This question is no longer open.',
  'err.not_paused.next': 'It was answered already, maybe in another tab: reload the page to see where it stands.',
  'err.already_confirmed': 'This question was already answered.',
  'err.already_confirmed.next': 'Reload the page to see what happened next.',
  'err.body_too_large': 'What you sent is too large.',
  'err.body_too_large.next': 'Use fewer or smaller pictures, or a smaller painted area.',
  'err.unsupported_media_type': 'The server did not understand the request.',
  'err.unsupported_media_type.next': 'Reload the page; the app may be out of date.',
  'err.internal': 'Something broke on the server.',
  'err.internal.next': 'Try again. If it keeps happening, tell the site’s administrator.',
  'err.store_unavailable': 'The server cannot reach its storage right now.',
  'err.store_unavailable.next': 'Wait a moment and try again.',
  'err.overloaded': 'The server is busy.',
  'err.overloaded.next': 'Wait a moment and try again.',
  'err.workflow_error': 'The agents stopped with an error.',
  'err.workflow_error.next': 'Send the request again; the timeline shows where it stopped.',
  'err.server': 'The server had a problem.',
  'err.server.next': 'Wait a moment and try again.',
  'err.refused': 'The server refused the request.',
  'err.refused.next': 'Reload the page and try again.',
  'err.unknown': 'Something went wrong.',
  'err.unknown.next': 'Reload the page and try again.',
  'app.details': 'Details',
  'empty.try': 'Try one:',
  'composer.count.title': 'What the server counts: a Chinese character takes 3, a Latin letter 1.',
  'err.too_long': 'The text is longer than the server takes ({max} bytes).',
  'err.too_long.next': 'Shorten it and send again: a Chinese character counts as 3, a Latin letter as 1.',
  'steps.running': 'Working · {n} steps so far',
  'steps.done': 'Thought for {s} s · {n} steps',
  'steps.count': '{n} steps',
  'steps.done_fast': 'Thought for under 0.1 s · {n} steps',
  'stream.error': 'Did not finish',
  'stream.unsent': 'Your answer was not sent',
  'pause.unsent': 'Not sent: the network is down. Your answer will be sent as soon as it is back.',
  'pause.answered.choice': 'Answered: {answer}',
  'pause.answered.skip': 'Skipped: went on as it was.',
  'pause.answered.modify_fields': 'Edited ({fields}) and continued.',
  'pause.answered.feedback': 'Your note to the agents: “{text}”',
  'files.how': 'Click to choose, drop pictures here, or paste one',
  'viewer.title': 'The picture, full size',
  'viewer.offline': 'Offline preview',
  'viewer.offline.title': 'Drawn by the offline renderer, which stands in when no image service is configured.',
  'viewer.close': 'Close',
  'viewer.width': '{w} px wide',
  'viewer.width.original': 'Original size',
  'viewer.size': 'Size of the download',
  'viewer.download': 'Download PNG',
  'tl.confidence': '{n}/100 sure',
  'threads.removed': 'Removed “{title}”.',
  'threads.undo': 'Undo',
  'health.kind.offline': 'offline (built in)',
  'health.kind.openai': 'OpenAI-compatible service',
  'health.kind.dashscope': 'DashScope',
  'health.role.chat': 'Writing',
  'health.role.image': 'Pictures',
  'health.role.search': 'Web search',
  'health.role.embeddings': 'Retrieval',
  'health.role.vision': 'Image understanding',
  'health.reachable': 'reachable',
  'nav.graph': 'Workflow editor',
  'threads.graph': 'Workflow',
  'node.start': 'Start',
  'node.retrieve': 'Finding nodes',
  'node.plan': 'Planning the change',
  'node.apply': 'Checking the change',
  'node.publish': 'Laying out',
  'node.edit': 'Your change',
  'node.history': 'Going back or forward',
  'nav.chat': 'Assistant',
  'threads.chat': 'Chat',
  'nav.orch': 'Agent team',
  'threads.orch': 'Team',
  'pause.kind.plan': 'the plan',
  'pause.refused': 'The edited plan cannot run as it is:',
  'field.subtasks': 'steps',
  'field.executionOrder': 'order',
};

const zh = {
  'app.tag': '部署在你自己服务器上的创意智能体',
  'app.skip': '跳到工作区',
  'nav.label': '工作室',
  'nav.image': '图像工作室',
  'nav.note': '笔记写作',
  'lang.switch': 'English',
  'lang.label': '切换为英文界面',
  'threads.title': '最近',
  'threads.empty': '还没有记录。在这里开始的会话会列在此处（仅保存在本浏览器）。',
  'threads.refresh': '刷新',
  'threads.image': '图像',
  'threads.note': '笔记',
  'threads.untitled': '（无标题）',
  'threads.forget': '从列表中移除',
  'threads.search': '搜索会话',
  'threads.none': '没有包含这些字的会话。',
  'threads.rename': '重命名',
  'threads.pin': '置顶',
  'threads.unpin': '取消置顶',
  'threads.toggle': '最近的会话',
  'status.running': '进行中',
  'status.paused': '等你确认',
  'status.done': '已完成',
  'status.error': '失败',
  'status.aborted': '已中止',
  'status.expired': '已过期',
  'status.unknown': '…',
  'health.checking': '正在检查服务器…',
  'health.ok': '服务器运行正常',
  'health.degraded': '服务器在运行，但存储不可用',
  'health.down': '服务器没有响应，是否已启动？',
  'health.offline': '设备已离线：网络恢复后会继续发送。',
  'health.again': '重新检查',
  'health.details': '详情',
  'health.version': '版本',
  'health.worker': '工作进程',
  'health.store': '存储',
  'health.unreachable': '不可用',
  'stream.idle': '就绪',
  'stream.connecting': '连接中…',
  'stream.streaming': '实时',
  'stream.reconnecting': '连接中断，正在重连（第 {n} 次）…',
  'stream.offline': '已离线，网络恢复后继续',
  'stream.paused': '等你确认',
  'stream.done': '已完成',
  'stream.failed': '已停止',
  'stream.refused': '未发送',
  'stream.stopped': '已停止',
  'stream.retry': '重试',
  'turn.unsent': '未发送：服务器没有响应。',
  'turn.unsent.next': '已为你保留，服务器恢复后会自动发送。',
  'turn.send_now': '立即发送',
  'stream.follow': '继续查看',
  'state.running': '进行中',
  'state.done': '完成',
  'state.failed': '失败',
  'state.stopped': '已停止',
  'tl.input': '输入',
  'tl.output': '结果',
  'tl.decision': '决策：',
  'tl.intent_detected': '意图：',
  'tl.content_type_detected': '内容类型：',
  'action.approve': '通过',
  'action.reject': '驳回',
  'action.modify': '修改',
  'action.send': '发送',
  'action.answer': '发送回答',
  'action.skip': '跳过，按现有需求继续',
  'action.unknown': '已回答',
  'node.workflow': '工作流',
  'node.input': '你的请求',
  'node.planner': '意图规划',
  'node.rag': '风格检索',
  'node.executor': '执行',
  'node.critic': '质量审查',
  'node.genui': '生成结果',
  'node.error_handler': '错误处理',
  'node.supervisor': '主管',
  'node.brief_compiler': '需求简报',
  'node.research_evidence': '调研证据',
  'node.reference_intelligence': '参考图分析',
  'node.writer': '创作专家',
  'node.layout_planner': '版式规划',
  'node.image_planner': '图片规划',
  'node.image': '图片生成',
  'node.review': '质量审核',
  'action.regenerate_btn': '重新生成',
  'action.adjust_btn': '再调整一下',
  'action.inpaint_btn': '局部重绘',
  'pause.title': '需要你的决定',
  'pause.kind.content': '文案',
  'pause.kind.image_plans': '图片规划',
  'pause.kind.other': '问题',
  'pause.kind.clarification': '补充信息',
  'pause.pickone': '选择一项',
  'pause.pickmany': '可多选',
  'pause.feedback': '给智能体的意见（可选）',
  'pause.feedback.ph': '例如：短一点、语气更温暖、写上价格',
  'pause.save': '保存并继续',
  'pause.cancel': '取消修改',
  'pause.deadline': '如果无人回答，将在 {time} 采用默认决定。',
  'pause.nochange': '没有任何修改。请修改字段，或选择“通过”。',
  'pause.sending': '正在发送你的决定…',
  'pause.answered.approve': '已确认：按此继续。',
  'pause.answered.reject': '已驳回：重新生成。',
  'pause.answered.modify': '已回答：修改后继续。',
  'pause.answered.other': '已回答。',
  'pause.badnumber': '{field} 必须是数字。',
  'pause.badjson': '{field} 不是有效的 JSON。',
  'pause.tagshint': '标签之间用逗号分隔。',
  'pause.plan': '配图 {n}',
  'pause.role.cover': '封面图',
  'pause.role.content': '正文配图',
  'pause.role.summary': '结尾配图',
  'pause.paragraph': '配在第 {n} 段',
  'pause.kind.quality': '发布或结束',
  'pause.changes': '和被退回的那一稿相比：',
  'pause.changes.added': '+ {text}',
  'pause.changes.removed': '− {text}',
  'pause.changes.changed': '~ {text}',
  'pause.changes.title': '~ 标题：{text}',
  'pause.changes.none': '没有变化：写作没能做到所要求的（见它的说明）。',
  'pause.changes.kept': '你写的内容原样保留（{n} 段）。',
  'pause.changes.why': '退回的原因：{text}',
  'pause.feedback.items': '你的修改意见，逐条处理：',
  'pause.feedback.done': '✓「{item}」：{text}',
  'pause.feedback.not': '✗「{item}」没有做到：{text}',
  'field.title': '标题',
  'field.body': '正文',
  'field.tags': '标签',
  'field.imagePlans': '图片规划',
  'field.prompt': '提示词',
  'field.audience': '受众',
  'field.goal': '目标',
  'field.constraints': '约束',
  'field.tone': '语气',
  'field.keywords': '关键词',
  'field.overall': '总分',
  'field.score': '评分',
  'field.passed': '通过',
  'field.style': '风格',
  'field.aspectRatio': '比例',
  'field.description': '描述',
  'field.caption': '配文',
  'field.purpose': '用途',
  'field.role': '角色',
  'field.source': '来源',
  'field.approved': '审核认可',
  'field.failReasons': '未通过原因',
  'field.sequence': '序号',
  'field.iteration': '轮次',
  'field.infoDensity': '信息密度',
  'field.readability': '可读性',
  'field.platformFit': '平台契合度',
  'field.textImageAlignment': '图文一致',
  'field.styleConsistency': '风格统一',
  'field.imageCompleteness': '配图完整',
  'value.yes': '是',
  'value.no': '否',
  'err.details': '服务器的说明',
  'err.network': '无法连接服务器。',
  'err.network.next': '请检查网络连接后重试。',
  'err.lost': '在服务器确认请求之前连接就断开了。',
  'err.lost.next': '请重试；如果请求已送达，它会出现在最近会话列表里。',
  'err.unknown_workflow': '这个服务器暂时还不提供这个工作室。',
  'err.unknown_workflow.next': '请联系网站管理员更新 AiVista，或先使用另一个工作室。',
  'err.bad_request': '服务器没有接受这个请求。',
  'err.bad_request.next': '请检查输入的内容（服务器的说明见下方）后重试。',
  'err.bad_json': '请求在传输中损坏了。',
  'err.bad_json.next': '请刷新页面后重试。',
  'err.json_too_deep': '请求过于复杂。',
  'err.json_too_deep.next': '请简化输入后重试。',
  'err.bad_content_length': '请求在传输中被截断了。',
  'err.bad_content_length.next': '请重试。',
  'err.bad_event_id': '页面在会话中的位置丢失了。',
  'err.bad_event_id.next': '请刷新页面。',
  'err.bad_thread_id': '这个会话链接在本服务器上无效。',
  'err.bad_thread_id.next': '请从最近会话列表中打开，或开始新的会话。',
  'err.not_found': '服务器不认识这个地址。',
  'err.not_found.next': '网站的配置可能不同，请联系管理员。',
  'err.thread_not_found': '服务器上已经没有这个会话了。',
  'err.thread_not_found.next': '请开始新的会话。',
  'err.thread_expired': '这个会话因长时间没有活动已过期。',
  'err.thread_expired.next': '请开始新的会话；之前的结果已不再保存。',
  'err.method_not_allowed': '服务器拒绝了这种请求。',
  'err.method_not_allowed.next': '请刷新页面，应用可能已过时。',
  'err.thread_busy': '这个会话还在处理中。',
  'err.thread_busy.next': '请等它完成后再发送。',
  'err.not_paused': '这个问题已经不需要回答了。',
  'err.not_paused.next': '可能已在其他标签页中回答，请刷新页面查看当前进度。',
  'err.already_confirmed': '这个问题已经回答过了。',
  'err.already_confirmed.next': '请刷新页面查看后续进展。',
  'err.body_too_large': '发送的内容太大了。',
  'err.body_too_large.next': '请减少或缩小图片，或缩小涂抹的区域。',
  'err.unsupported_media_type': '服务器无法理解这个请求。',
  'err.unsupported_media_type.next': '请刷新页面，应用可能已过时。',
  'err.internal': '服务器内部出错了。',
  'err.internal.next': '请重试。如果一直出现，请告诉网站管理员。',
  'err.store_unavailable': '服务器暂时无法访问存储。',
  'err.store_unavailable.next': '请稍等片刻后重试。',
  'err.overloaded': '服务器正忙。',
  'err.overloaded.next': '请稍等片刻后重试。',
  'err.workflow_error': '智能体因错误停止了。',
  'err.workflow_error.next': '请重新发送请求；时间线中标出了停止的位置。',
  'err.server': '服务器出现了问题。',
  'err.server.next': '请稍等片刻后重试。',
  'err.refused': '服务器拒绝了这个请求。',
  'err.refused.next': '请刷新页面后重试。',
  'err.unknown': '出了点问题。',
  'err.unknown.next': '请刷新页面后重试。',
  'app.details': '详情',
  'empty.try': '试试这些：',
  'composer.count.title': '按服务器的算法计数：一个汉字算 3，一个英文字母算 1。',
  'err.too_long': '文字超过了服务器能接受的长度（{max} 字节）。',
  'err.too_long.next': '请删短后再发送：一个汉字算 3 字节，一个英文字母算 1 字节。',
  'steps.running': '处理中 · 已完成 {n} 步',
  'steps.done': '思考了 {s} 秒 · {n} 步',
  'steps.count': '{n} 步',
  'steps.done_fast': '思考了不到 0.1 秒 · {n} 步',
  'stream.error': '未完成',
  'stream.unsent': '你的回答还没发出',
  'pause.unsent': '未发送：网络已断开。网络恢复后会自动发送你的回答。',
  'pause.answered.choice': '已回答：{answer}',
  'pause.answered.skip': '已跳过：按原样继续。',
  'pause.answered.modify_fields': '已修改（{fields}）并继续。',
  'pause.answered.feedback': '你给智能体的意见：“{text}”',
  'files.how': '点击选择、拖入图片，或直接粘贴',
  'viewer.title': '查看大图',
  'viewer.offline': '离线预览',
  'viewer.offline.title': '由离线渲染器绘制：没有配置图像服务时用它代替。',
  'viewer.close': '关闭',
  'viewer.width': '宽 {w} 像素',
  'viewer.width.original': '原始尺寸',
  'viewer.size': '下载尺寸',
  'viewer.download': '下载 PNG',
  'tl.confidence': '把握 {n}/100',
  'threads.removed': '已移除“{title}”。',
  'threads.undo': '撤销',
  'health.kind.offline': '离线（内置）',
  'health.kind.openai': 'OpenAI 兼容服务',
  'health.kind.dashscope': '通义 DashScope',
  'health.role.chat': '写作',
  'health.role.image': '图片',
  'health.role.search': '联网搜索',
  'health.role.embeddings': '检索',
  'health.role.vision': '识图',
  'health.reachable': '可用',
  'nav.graph': '工作流编辑',
  'threads.graph': '工作流',
  'node.start': '开始',
  'node.retrieve': '查找节点',
  'node.plan': '规划修改',
  'node.apply': '检查修改',
  'node.publish': '自动布局',
  'node.edit': '你的修改',
  'node.history': '撤销或重做',
  'nav.chat': '智能助手',
  'threads.chat': '对话',
  'nav.orch': '智能体团队',
  'threads.orch': '团队',
  'pause.kind.plan': '执行计划',
  'pause.refused': '修改后的计划无法执行：',
  'field.subtasks': '步骤',
  'field.executionOrder': '顺序',
};

// The server's words, for ids an event carries without them (a pause's
// options, a note agent's tools): as the server's catalogue has them
// (src/text/msg.c, src/wf/*/*_msg.c).
const serverEn = {
  'option.approve': 'Continue',
  'option.reject': 'Regenerate',
  'option.modify': 'Edit',
  'tool.searchNotes': 'Searching the local notes',
  'tool.analyzeTopTags': 'Counting the popular tags',
  'tool.getTopTitles': 'Reading the most liked titles',
  'tool.getTrendReport': 'Looking at the posting trend',
  'tool.webSearch': 'Searching the web',
  'tool.generateImage': 'Drawing the picture',
  'tool.generate_with_reference': 'Drawing from your reference image',
  'tool.generate_images_batch': 'Drawing the pictures',
  'tool.managePrompt': 'Updating the brief',
  'tool.recommendTemplates': 'Choosing a note template',
  'tool.askUser': 'Asking you',
};

const serverZh = {
  'option.approve': '继续',
  'option.reject': '重新生成',
  'option.modify': '修改',
  'tool.searchNotes': '搜索本地笔记',
  'tool.analyzeTopTags': '统计热门标签',
  'tool.getTopTitles': '查看高赞标题',
  'tool.getTrendReport': '分析发布趋势',
  'tool.webSearch': '联网搜索',
  'tool.generateImage': '生成配图',
  'tool.generate_with_reference': '参考你的图片生成配图',
  'tool.generate_images_batch': '批量生成配图',
  'tool.managePrompt': '整理创作要求',
  'tool.recommendTemplates': '挑选笔记模板',
  'tool.askUser': '向你确认',
};

const dicts = { en: {}, zh: {} };
const owners = {};           // key → the table that defined it
const problems = [];         // words defined twice, or in one language only
const listeners = new Set();

// Adds a table of words ({en, zh}) under its owner's name. A key another
// table has, or one that is missing in either language, is reported (on
// the console, and in wordTables().problems) and the first owner's words
// stay.
export function addWords(owner, { en, zh }) {
  const found = [];
  for (const key of new Set([...Object.keys(en), ...Object.keys(zh)])) {
    if (!(key in en) || !(key in zh)) found.push(`${owner}: ${key} is not in both languages`);
    if (owners[key]) {
      found.push(`${key}: defined by ${owners[key]} and by ${owner}`);
      continue;
    }
    owners[key] = owner;
    dicts.en[key] = en[key] ?? zh[key];
    dicts.zh[key] = zh[key] ?? en[key];
  }
  for (const p of found) console.error(`words: ${p}`);
  problems.push(...found);
}

// All the words, their owners and the problems found (for the tests).
export function wordTables() {
  return { en: { ...dicts.en }, zh: { ...dicts.zh }, owners: { ...owners }, problems: [...problems] };
}

function initial() {
  try {
    const saved = localStorage.getItem('aivista.lang');
    if (saved === 'zh' || saved === 'en') return saved;
  } catch { /* no storage */ }
  return /^zh/i.test(navigator.language || '') ? 'zh' : 'en';
}

let lang = initial();

export const getLang = () => lang;

export function t(key, params) {
  let s = dicts[lang][key] ?? dicts.en[key] ?? key;
  if (params) s = s.replace(/\{(\w+)\}/g, (m, k) => (params[k] != null ? String(params[k]) : m));
  return s;
}

export function setT(el, key, params) {
  el.dataset.i18n = key;
  if (params) el.dataset.i18nParams = JSON.stringify(params);
  else delete el.dataset.i18nParams;
  el.textContent = t(key, params);
  return el;
}

export function tx(key, params, tag = 'span') {
  return setT(document.createElement(tag), key, params);
}

// Translates an attribute (placeholder, aria-label, title, alt).
export function setAttrT(el, attr, key, params) {
  const map = JSON.parse(el.dataset.i18nAttrs || '{}');
  map[attr] = [key, params || null];
  el.dataset.i18nAttrs = JSON.stringify(map);
  el.setAttribute(attr, t(key, params));
  return el;
}

export function apply(root = document) {
  for (const el of root.querySelectorAll('[data-i18n]')) {
    const p = el.dataset.i18nParams ? JSON.parse(el.dataset.i18nParams) : undefined;
    el.textContent = t(el.dataset.i18n, p);
  }
  for (const el of root.querySelectorAll('[data-i18n-attrs]')) {
    for (const [attr, [key, params]] of Object.entries(JSON.parse(el.dataset.i18nAttrs))) {
      el.setAttribute(attr, t(key, params || undefined));
    }
  }
}

export function setLang(l) {
  lang = l === 'zh' ? 'zh' : 'en';
  try { localStorage.setItem('aivista.lang', lang); } catch { /* no storage */ }
  document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
  apply(document);
  for (const fn of listeners) fn(lang);
}

export function onLang(fn) {
  listeners.add(fn);
}

// A node or agent name in the page's language ("writer_agent" → Writer).
export function nodeLabel(name) {
  const n = String(name ?? '');
  const key = `node.${n.replace(/_agent$/, '')}`;
  return t(key) === key ? n : t(key);
}

// An element showing dictionary key `key` when there is one, else the
// fallback text as it is (a field or node name the page does not know).
export function label(tag, key, fallback) {
  const el = document.createElement(tag);
  if (t(key) !== key) setT(el, key);
  else el.textContent = String(fallback ?? '');
  return el;
}

export function nodeName(tag, name) {
  const n = String(name ?? '');
  return label(tag, `node.${n.replace(/_agent$/, '')}`, n);
}

addWords('app', { en, zh });
addWords('server', { en: serverEn, zh: serverZh });
