"""The note workflow under a person's decisions, on a table of topics.

Each topic of the table (checklists, recipes, trips, comparisons,
how-tos; pets, skincare, fitness, study; English; odd ones: one
character, emoji, a very long request, mixed languages, a subject the
notes corpus does not cover) comes with a script of decisions for its
pauses: approve; reject with feedback (remove X, say more about Y, add Y,
shorter, longer, tone, audience, a list or steps, the title's wording);
modify with a person's own text, sometimes followed by a reject; reject
the image plans (reorder, drop, re-describe, style). A content decision
answers the next content pause, a plans decision the next image_plans
pause; any other pause is approved (a clarification with the table's
answer, if any).

Offline (no model key), every run must end workflow_complete with a note
(a quality pause, if reached, is approved: quality.passed false still
counts; the runs that needed it are counted); every text the person
wrote is in the final note word for word; every feedback item is reported
applied or declined by name, one progress line per item (and, when the
next pause of that kind carries context.feedback, one entry per item),
and what a report says was done is done (a removed word is gone from the
next draft and was in the refused one, a longer body is longer, a style
is on every plan...); no progress line claims to have removed a word that
is still in the next draft or never was in the refused one; no two
content pauses offer the same draft, nor a draft already refused, nor
the draft they replace with its sections moved; each section of the note
names the topic's own words (or its kind's: 食材, 第一天, 对比...), and
so does every title but the person's; no title, tag, caption or cover
line starts or ends
inside a word (the topic's, etc/words.txt's, a Latin word) or says a
word twice in a row; an English topic's thread is English throughout,
the review's reasons included; a clarification is asked at most once;
the run ends within a bounded number of pauses and steps.

Against fake_models' note-low reviewer (every draft scored low), the same
decisions: every run reaches the quality pause with the best-scored draft
after maxIterations + 1 reviews; approve publishes it (workflow_complete,
quality {passed: false, reasons, publishedBy: person}), reject stops it
(aborted, max_iterations, the draft kept in state.creative); the person's
texts are in what is published or kept; feedback is reported, drafts are
not repeated, titles name the topic and cut no word, as offline; never a
loop.

Every failure names the topic, the decision and what was wrong.
"""

import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avtest  # noqa: E402
import avnotelow  # noqa: E402
import avnotecheck as nc  # noqa: E402
from avnotecheck import (rm, more, add, shorter, longer, tone, aud, as_list, as_steps, title,  # noqa: E402
                         order, drop, desc, style)
from avevents import data, events, types, last_ask  # noqa: E402

LOW_MAX_ITERATIONS = 2


# -- decisions ------------------------------------------------------------------------

def R(text, *items):
    """Reject the content pause with feedback text, made of items."""
    return {"at": "content", "act": "reject", "text": text, "items": list(items)}


def M(body=None, head=None, tags=None):
    """Modify the content pause with the person's own text."""
    payload = {k: v for k, v in (("title", head), ("body", body), ("tags", tags)) if v is not None}
    return {"at": "content", "act": "modify", "payload": payload, "items": []}


def P(text, *items):
    """Reject the image plans with feedback text, made of items."""
    return {"at": "image_plans", "act": "reject", "text": text, "items": list(items)}


A = {"at": "content", "act": "approve", "items": []}


def label(dec):
    if dec is None:
        return "start"
    if dec["at"] == "quality":
        return "publish" if dec["act"] == "approve" else "stop"
    if dec["act"] == "modify":
        p = dec["payload"]
        return "modify %s「%s…」" % ("+".join(sorted(p)), (p.get("body") or p.get("title") or "")[:14])
    if dec["act"] == "reject":
        return "%sreject「%s」" % ("plans " if dec["at"] == "image_plans" else "", dec.get("text") or "")
    return "%s %s" % (dec["act"], dec.get("at", ""))


# -- the person's own texts -----------------------------------------------------------

CAMP = ("我自己的露营装备清单：帐篷选双层防雨款，预算 300 元左右；睡袋看舒适温标，春秋选 5 度的。\n\n"
        "防潮垫一定要带，铝膜款 30 元就够，不然半夜会被地面冻醒。")
ABROAD = ("出国留学行李清单，按我去英国读研时的两个箱子整理。\n\n"
          "证件类：护照、签证、录取信和存款证明复印件各两份，分开放在随身包和托运箱。\n\n"
          "电器类：转换插头 2 个（约 40 元），充电宝 1 个，旧手机留作备用机。")
PORK = ("红烧肉我家这样做，肥而不腻，第一次做也不会失手。\n\n"
        "材料：五花肉 500 克，冰糖 30 克，生抽 2 勺，老抽 1 勺，料酒 2 勺，姜 3 片。\n\n"
        "1. 五花肉切 3 厘米见方的块，冷水下锅焯水 3 分钟。\n"
        "2. 小火炒冰糖到枣红色，下肉翻炒 2 分钟上色。\n"
        "3. 加生抽老抽和热水，小火炖 60 分钟，大火收汁 5 分钟。")
SOLO = ("一个人的晚餐也要好好吃：番茄肥牛饭，15 分钟出锅。\n\n"
        "材料：肥牛 150 克，番茄 1 个，洋葱半个，米饭 1 碗。\n\n"
        "番茄切块炒出汁，加洋葱和 100 毫升水煮 3 分钟，下肥牛烫熟，浇在米饭上。")
HARBIN = ("哈尔滨冬天旅游，我去年一月去了四天。\n\n"
          "第一天：中央大街和索菲亚教堂，晚上零下 25 度，羽绒服要到膝盖。\n"
          "第二天：冰雪大世界，下午 3 点进园，看完日落再看灯。")
VITC = ("早C晚A我是这样入门的：早上用 10% 的维C精华，晚上用 0.1% 的A醇，一周两次起步。\n\n"
        "第一个月脸有点干，换成厚一点的面霜就好了，白天一定要涂防晒。")
PILATES = ("普拉提体态改善，我每周练 3 次，每次 30 分钟，三个月后圆肩明显好了。\n\n"
           "最有用的三个动作：天鹅式 10 次，猫式伸展 10 次，侧卧抬腿每边 15 次。")
VACCINE = ("带猫咪打疫苗，我家两只都是这样安排的：两个月大打第一针猫三联，间隔 3 到 4 周打第二针，"
           "第三针同时打狂犬。\n\n打完留院观察 30 分钟，回家一周内不洗澡，精神差就及时回医院。")
PUPPY = ("Training a puppy at home: what worked for our 10-week-old beagle.\n\n"
         "Five-minute sessions, three times a day, with tiny treats for sit, down and come.\n\n"
         "Crate training: start with the door open and feed meals in the crate for the first week.")

LONG_TOPIC = ("我家楼下新开了一家社区图书馆，想写一篇笔记介绍一下：怎么办借书证、要带什么证件、"
              "一次能借几本、借期多久、逾期怎么算；周末有什么亲子活动，绘本区适合几岁的孩子，"
              "活动要不要提前预约；自习区的座位在几楼、几点开门、能不能带水和电脑、有没有插座；"
              "还有馆里的咖啡角和还书机怎么用，顺便推荐几本最近在看的书，"
              "希望小区的邻居们都能去逛逛，也欢迎大家在评论区说说自己常去的图书馆")

# The words that let a section of a kind of note be about its kind.
KIND_WORDS = {
    "list": ["清单", "必带", "必备", "预算", "checklist", "packing", "budget"],
    "recipe": ["食材", "材料", "用料", "调料", "步骤", "做法", "火候", "ingredients", "method"],
    "trip": ["第一天", "第二天", "第三天", "第四天", "第五天", "第六天", "第七天", "行程", "住宿", "交通",
             "Day 1", "Day 2", "Day 3", "itinerary", "getting there", "where to stay"],
    "compare": ["对比", "区别", "怎么选", "参数", "优缺点", "选购", "compare", "versus", "which to pick"],
    "howto": ["第一步", "步骤", "step 1", "steps"],
    "note": [],
}

# (topic, kind, its own words, decisions[, the answer to a clarification])
TOPICS = [
    ("新手露营装备清单", "list", ["露营", "装备", "清单", "新手"],
     [R("太长了，语气再活泼一点，加上预算", shorter(), tone("活泼"), add("预算")), M(CAMP),
      P("换成水彩风", style("水彩"))]),
    ("大学生宿舍必备好物清单", "list", ["宿舍", "好物", "清单", "大学生", "必备"],
     [R("不要提价格", rm("价格"))]),
    ("出国留学行李清单", "list", ["留学", "行李", "清单", "出国"],
     [M(ABROAD, tags=["留学", "行李清单", "出国"])]),
    ("新生儿待产包清单", "list", ["待产包", "新生儿", "清单"],
     [R("改成清单的形式，写给新手妈妈看", as_list(), aud("新手妈妈"))]),
    ("第一次去长沙旅游要带什么", "list", ["长沙", "旅游"],
     [R("不要提充电宝，多讲讲防晒", rm("充电宝"), more("防晒"))]),
    ("红烧肉的家常做法", "recipe", ["红烧肉", "家常", "做法"],
     [M(PORK), P("第二张放到第一张", order(2, 1))]),
    ("番茄炒蛋怎么做好吃", "recipe", ["番茄炒蛋", "番茄", "炒蛋", "鸡蛋"],
     [R("写成步骤，标题里要有「下饭」", as_steps(), title("下饭"))]),
    ("空气炸锅鸡翅", "recipe", ["空气炸锅", "鸡翅"],
     [R("多讲讲腌料的用量", more("腌料"))]),
    ("夏天自制绿豆沙", "recipe", ["绿豆沙", "绿豆", "自制"],
     [R("不要提冰箱", rm("冰箱")), R("更长一点", longer())]),
    ("一人食快手晚餐", "recipe", ["一人食", "快手", "晚餐"],
     [M(SOLO, head="一人食晚餐｜15 分钟搞定"), R("加上热量", add("热量"))]),
    ("减脂期早餐食谱", "recipe", ["减脂", "早餐", "食谱"],
     [R("短一点，写给上班族看", shorter(), aud("上班族"))]),
    ("周末去杭州春游的攻略", "trip", ["杭州", "春游", "周末"],
     [R("太长了", shorter()), P("去掉最后一张", drop(-1))]),
    ("春天去苏州旅行，带上家里的猫", "trip", ["苏州", "旅行", "春天"],
     [R("不要提猫", rm("猫"))]),
    ("成都三天两夜怎么玩", "trip", ["成都", "三天两夜"],
     [R("多讲讲美食，写给学生党看", more("美食"), aud("学生党"))]),
    ("哈尔滨冬天旅游攻略", "trip", ["哈尔滨", "冬天", "旅游"],
     [M(HARBIN), R("加上交通", add("交通"))]),
    ("周末去莫干山露营", "trip", ["莫干山", "露营", "周末"],
     [A, P("第一张改成：竹林里的帐篷和篝火", desc(1, "竹林里的帐篷和篝火", "竹林"))]),
    ("云南七日游路线", "trip", ["云南", "七日游", "路线"],
     [R("更长一点，每天写清楚住宿", longer(), more("住宿"))]),
    ("泉州小众景点", "trip", ["泉州", "小众", "景点"],
     [P("第三张放到第一张，换成胶片风", order(3, 1), style("胶片"))]),
    ("citywalk上海武康路拍照", "trip", ["citywalk", "武康路", "上海", "拍照"],
     [R("不要提咖啡", rm("咖啡"))]),
    ("iPhone和安卓手机怎么选", "compare", ["iPhone", "安卓", "手机"],
     [R("标题换个说法", title())]),
    ("学生党笔记本电脑怎么选", "compare", ["笔记本电脑", "笔记本", "电脑", "学生党"],
     [R("不要提游戏，多讲讲续航", rm("游戏"), more("续航"))]),
    ("扫地机器人和洗地机对比", "compare", ["扫地机器人", "扫地机", "机器人", "洗地机"], [A]),
    ("降噪耳机推荐", "compare", ["降噪耳机", "耳机", "降噪"],
     [R("语气专业一点", tone("专业"))]),
    ("油皮夏天防晒霜怎么选", "compare", ["防晒霜", "防晒", "油皮"],
     [R("多讲讲怎么看SPF和PA", more("SPF"))]),
    ("敏感肌修护面霜推荐", "compare", ["敏感肌", "面霜", "修护"],
     [R("不要提品牌", rm("品牌")), R("短一点", shorter())]),
    ("早C晚A怎么入门", "howto", ["早C晚A", "入门"],
     [M(VITC), R("多讲讲建立耐受", more("耐受"))]),
    ("考研英语阅读怎么提分", "howto", ["考研", "英语", "阅读", "提分"],
     [R("多讲讲长难句，加上真题怎么用", more("长难句"), add("真题"))]),
    ("雅思单词怎么背", "howto", ["雅思", "单词"], [R("写成步骤", as_steps())]),
    ("新手跑步入门", "howto", ["跑步", "新手", "入门"],
     [R("写给上班族看，更长一点", aud("上班族"), longer())]),
    ("居家燃脂训练", "howto", ["燃脂", "训练", "居家"], [R("不要提跳绳", rm("跳绳"))]),
    ("普拉提体态改善", "howto", ["普拉提", "体态"],
     [M(PILATES, head="普拉提改善体态｜我练了 3 个月"), R("标题里要有「跟练」", title("跟练"))]),
    ("猫咪挑食怎么办", "howto", ["猫咪", "挑食"], [R("多讲讲换粮", more("换粮"))]),
    ("新手养狗指南", "howto", ["养狗", "狗狗", "新手"],
     [R("不要提价格，语气温柔一点", rm("价格"), tone("温柔"))]),
    ("带猫咪打疫苗", "howto", ["猫咪", "疫苗"], [M(VACCINE)]),
    ("仓鼠笼子怎么布置", "howto", ["仓鼠", "笼子", "布置"],
     [P("换成油画风格，去掉最后一张", style("油画"), drop(-1))]),
    ("小户型收纳技巧", "howto", ["小户型", "收纳"], [R("改成清单", as_list())]),
    ("法考备考时间安排", "howto", ["法考", "备考"],
     [R("太短了，多写点", longer()), R("写成步骤", as_steps()), R("标题换个说法", title())]),
    ("错题本怎么整理", "howto", ["错题本", "整理"],
     [R("不要提手机", rm("手机")), R("多讲讲分类", more("分类")), R("短一点", shorter()),
      R("写给初中生看", aud("初中生"))]),
    ("猫", "note", ["猫"], [A]),
    # Emoji alone name no words the rules can read: the topic question is
    # asked, and the person's answer is the topic.
    ("🐶🐱", "note", ["🐶", "🐱", "猫", "狗"], [R("多讲讲怎么让它们和平相处", more("相处"))],
     "家里同时养猫和狗"),
    ("☕️咖啡拉花入门", "howto", ["咖啡", "拉花"], [R("加上奶泡的温度", add("奶泡"))]),
    (LONG_TOPIC, "note", ["图书馆", "借书证", "自习", "亲子", "社区"], [R("短一点", shorter())]),
    ("Python入门怎么学", "howto", ["Python", "入门"], [R("写给文科生看", aud("文科生"))]),
    ("量子计算入门", "howto", ["量子计算", "量子"], [A], "大学生"),
    ("古筝自学入门", "howto", ["古筝", "自学"], [R("多讲讲指法", more("指法"))]),
    ("How to pick 防晒霜 for oily skin", "compare", ["防晒霜", "oily", "skin"],
     [R("不要提价格", rm("价格"))]),
    ("a weekend hiking trip", "trip", ["hiking", "weekend", "trip"],
     [R("Make it shorter, and don't mention tickets", shorter(), rm("tickets"))]),
    ("easy breakfast recipes", "recipe", ["breakfast", "recipe"],
     [R("Add an overnight oats recipe", add("oats"))]),
    ("how to train a puppy", "howto", ["puppy", "train"],
     [M(PUPPY), R("Write it for first-time owners", aud("first-time owners"))]),
    ("choosing a laptop for college", "compare", ["laptop", "college"],
     [R("Say more about battery life, and use a list", more("battery"), as_list())]),
    ("beginner strength workout at home", "howto", ["workout", "strength", "beginner"],
     [R("Put dumbbells in the title", title("dumbbells")),
      P("Use a watercolor style", style("watercolor", "watercolour"))]),
    ("skincare routine for oily skin", "howto", ["skincare", "routine", "oily", "skin"],
     [R("A more playful tone, please", tone("playful"))]),
]


class Case:
    def __init__(self, row):
        self.topic, self.kind, self.words, self.decisions = row[:4]
        self.answer = row[4] if len(row) > 4 else None
        self.english = bool(nc.LATIN.search(self.topic)) and not nc.CJK.search(self.topic)
        self.name = self.topic if len(self.topic) <= 24 else self.topic[:22] + "…"
        self.rejects = sum(1 for d in self.decisions if d["act"] == "reject")


# -- driving a run --------------------------------------------------------------------

MAX_CONFIRMS = 30


def post(w, path, obj):
    r = w.request("POST", path, body=json.dumps(obj), headers={"Content-Type": "application/json"},
                  timeout=60)
    return r.status, events(r.body)


class Run:
    """A thread driven by a case's decisions: segments [(decision, the
    question it answered, the events it got back)], the first with no
    decision."""

    def __init__(self, case):
        self.case = case
        self.segments = []
        self.tid = None
        self.unused = []
        self.looped = False
        self.thread = {}
        self.bad_status = []       # (decision label, HTTP status) of answers not taken

    def all(self):
        return [e for _, _, evs in self.segments for e in evs]

    def pauses(self):
        return [q for q in data(self.all(), "ask_user")]


def answer_for(case, q, at_quality):
    kind = q["context"]["kind"]
    if kind == "clarification":
        return {"act": "approve", "at": kind, "payload": {"feedback": case.answer} if case.answer else None,
                "items": []}
    if kind == "quality":
        return {"act": at_quality, "at": kind, "items": []}
    return {"act": "approve", "at": kind, "items": []}


def drive(w, case, at_quality="approve", max_iterations=None):
    run = Run(case)
    inp = {"topic": case.topic}
    if max_iterations is not None:
        inp["maxIterations"] = max_iterations
    st, evs = post(w, "/api/agent/stream", {"workflow": "note", "input": inp})
    run.segments.append((None, None, evs))
    starts = data(evs, "thread_start")
    if st != 200 or not starts:
        return run
    run.tid = starts[0]["threadId"]
    queues = {"content": [d for d in case.decisions if d["at"] == "content"],
              "image_plans": [d for d in case.decisions if d["at"] == "image_plans"]}
    for _ in range(MAX_CONFIRMS):
        q = last_ask(evs) if "workflow_paused" in types(evs) else None
        if q is None:
            break
        kind = q["context"]["kind"]
        dec = queues[kind].pop(0) if queues.get(kind) else answer_for(case, q, at_quality)
        body = {"threadId": run.tid, "interruptId": q["interruptId"], "action": dec["act"]}
        if dec["act"] == "reject" and dec.get("text"):
            body["payload"] = {"feedback": dec["text"]}
        elif dec.get("payload"):
            body["payload"] = dec["payload"]
        st, evs = post(w, "/api/agent/confirm", body)
        run.segments.append((dec, q, evs))
        if st != 200:
            run.bad_status.append((label(dec), st))
    else:
        run.looped = "workflow_paused" in types(evs)
    run.unused = queues["content"] + queues["image_plans"]
    r = w.request("GET", "/api/threads/" + run.tid, timeout=60)
    run.thread = json.loads(r.body) if r.status == 200 else {}
    return run


# -- following a run ------------------------------------------------------------------

def key(d):
    return (d.get("title") or "", d.get("body") or "", tuple(d.get("tags") or []))


def draft_of(d):
    return {"title": d.get("title") or "", "body": d.get("body") or "", "tags": list(d.get("tags") or [])}


class Story:
    """What happened to the draft through a run: the drafts offered at
    content pauses (with the one the writer replaced and its progress
    lines), the reviews (with the draft each scored), the person's texts
    still theirs."""

    def __init__(self, run):
        self.offered = []          # (seq, draft, replaced draft or None, writer lines)
        self.reviews = []          # (overall, passed, draft, failReasons)
        self.person = []           # (field, text, decision label)
        self.person_bodies = []    # every body text the person wrote
        self.refused = []          # (seq, draft) the review failed
        cur, seq = None, 0
        for dec, q, evs in run.segments:
            if dec and dec["at"] == "content" and dec["act"] == "modify":
                cur = dict(draft_of(q.get("editable") or {}), **dec["payload"])
                self.take_modify(dec)
                self.reviews = []
            elif dec and dec["act"] == "reject":
                self.take_reject(dec)
            before, lines = cur, []
            for e in data(evs):
                seq += 1
                ty = e["type"]
                if ty == "agent_start" and e.get("node") == "writer_agent":
                    before, lines = cur, []
                elif ty == "progress" and e.get("agent") == "writer_agent":
                    lines.append(e.get("content") or "")
                elif ty == "content_update":
                    cur = draft_of(e)
                elif ty == "quality_score":
                    self.reviews.append((e.get("overall"), e.get("passed"), cur, e.get("failReasons")))
                    if e.get("passed") is False and cur is not None:
                        self.refused.append((seq, cur))
                elif ty == "ask_user" and e["context"].get("kind") == "content":
                    d = draft_of(e.get("editable") or {})
                    self.offered.append((seq, d, before, list(lines)))
                    cur = d

    def take_modify(self, dec):
        p, lab = dec["payload"], label(dec)
        for field in ("title", "body"):
            if field in p:
                self.person = [x for x in self.person if x[0] != field]
                self.person.append((field, p[field], lab))
        if "body" in p:
            self.person_bodies.append(p["body"])
        for tg in p.get("tags") or []:
            self.person.append(("tag", tg, lab))

    def take_reject(self, dec):
        """A later decision of the person's changes their own text: a title
        item their title, a removal the paragraphs that have the word."""
        for it in dec["items"]:
            if it.kind == "title":
                self.person = [x for x in self.person if x[0] != "title"]
            if it.kind == "remove":
                kept = []
                for field, text, lab in self.person:
                    if field == "body" and nc.has(text, it.arg):
                        for par in nc.paragraphs(text):
                            if not nc.has(par, it.arg):
                                kept.append(("body", par, lab))
                    elif not nc.has(text, it.arg):
                        kept.append((field, text, lab))
                self.person = kept

    def best(self):
        """The best-scored draft reviewed since the person's last edit (the
        later of equal scores)."""
        best = None
        for overall, _, d, reasons in self.reviews:
            if d is not None and (best is None or overall >= best[0]):
                best = (overall, d, reasons)
        return best


# -- the checks -----------------------------------------------------------------------

def missing_person_texts(story, note):
    out = []
    for field, text, lab in story.person:
        if field == "title" and text not in (note.get("title") or ""):
            out.append("%s: title %r is now %r" % (lab, text, note.get("title")))
        elif field == "body" and text not in (note.get("body") or ""):
            out.append("%s: its text 「%s…」 is not in the body word for word" % (lab, text[:20]))
        elif field == "tag" and text not in (note.get("tags") or []):
            out.append("%s: tag %r is not in %r" % (lab, text, note.get("tags")))
    return out


def entry_problems(items, fb):
    """Items without a well-formed entry in context.feedback; and the
    matching {item index: entry index}."""
    if not isinstance(fb, list):
        return ["context.feedback is not a list: %r" % (fb,)], {}
    out, by_entry = [], nc.match(items, fb, nc.entry_fits)
    for n, it in enumerate(items):
        e = fb[by_entry[n]] if n in by_entry else None
        if e is None:
            out.append("%r has no entry in context.feedback %s" % (it, json.dumps(fb, ensure_ascii=False)[:300]))
        elif not isinstance(e.get("done"), bool) or not (isinstance(e.get("said"), str) and e["said"]):
            out.append("%r: context.feedback entry without done (bool) and said: %r" % (it, e))
    return out, by_entry


def feedback_problems(run, i, stats):
    """What is wrong with the report of segment i's reject: items not
    reported by name in a progress line of their own, context.feedback
    entries missing, malformed or saying otherwise than the progress line,
    a change reported done that is not in the next draft or plans."""
    dec, q, evs = run.segments[i]
    items = dec["items"]
    nxt = last_ask(evs)
    if not items or nxt is None or nxt["context"].get("kind") != dec["at"]:
        return []
    lines = []
    for p in data(evs, "progress"):
        if p.get("content") and p["content"] not in lines:
            lines.append(p["content"])
    by_line = nc.match(items, lines, nc.line_fits)
    out = ["%r is not reported applied or declined by name in a progress line of its own (progress: %s)"
           % (it, " / ".join(lines[-4:]) or "none") for n, it in enumerate(items) if n not in by_line]
    fb = nxt["context"].get("feedback")
    bad, by_entry = entry_problems(items, fb) if fb is not None else ([], {})
    out += bad
    for n, it in enumerate(items):
        said = nc.line_status(lines[by_line[n]]) == "done" if n in by_line else None
        entry = fb[by_entry[n]].get("done") if n in by_entry else None
        if isinstance(entry, bool) and said is not None and entry != said:
            out.append("%r: progress says %r but context.feedback says done=%s" % (it, lines[by_line[n]], entry))
        done = entry if isinstance(entry, bool) else said
        if done is None:
            stats["unreported"] += 1
            continue
        stats["applied" if done else "declined"] += 1
        if not done:
            continue
        if dec["at"] == "content":
            why = nc.draft_effect(it, draft_of(q.get("editable") or {}), draft_of(nxt.get("editable") or {}))
        else:
            why = nc.plans_effect(it, (q.get("editable") or {}).get("imagePlans") or [],
                                  (nxt.get("editable") or {}).get("imagePlans") or [])
        if why:
            out.append("%r: reported done, but %s" % (it, why))
    if dec["at"] == "image_plans" and [p.get("prompt") for p in (q.get("editable") or {}).get("imagePlans") or []] \
            == [p.get("prompt") for p in (nxt.get("editable") or {}).get("imagePlans") or []]:
        out.append("the plans offered again are the refused ones")
    return out


def claim_problems(story):
    """Progress lines that claim a removal not made."""
    out = []
    for _, d, before, lines in story.offered:
        if before is None:
            continue
        for line in lines:
            for w in nc.removal_claims(line):
                if nc.has(nc.text_of(d), w):
                    out.append("%r, but 「%s」 is still in the next draft" % (line, w))
                elif not nc.has(nc.text_of(before), w):
                    out.append("%r, but 「%s」 was never in the refused draft" % (line, w))
    return out


def sections_moved(before, d):
    """Whether d's body is before's paragraphs in another order (their
    numbering aside)."""
    def norm(body):
        return [re.sub(r"^(?:[一二三四五六七八九十]+、|\d+[.、)]\s*)", "", p) for p in nc.paragraphs(body)]
    a, b = norm(before["body"]), norm(d["body"])
    return a != b and sorted(a) == sorted(b)


def repeated_drafts(story):
    """Content pauses that offer a draft offered before, one the review
    refused before, or the draft they replace with its sections moved."""
    out = []
    for n, (seq, d, before, _) in enumerate(story.offered):
        for m, (seq2, d2, _, _) in enumerate(story.offered[:n]):
            if key(d2) == key(d):
                out.append("content pause %d offers the draft of pause %d again (%s)" % (n + 1, m + 1, d["title"]))
                break
        else:
            if any(key(r) == key(d) for s2, r in story.refused if s2 < seq):
                out.append("content pause %d offers a draft the review refused (%s)" % (n + 1, d["title"]))
            elif before is not None and sections_moved(before, d):
                out.append("content pause %d only moves the sections of the draft it replaces (%s)"
                           % (n + 1, " / ".join(h for h, _ in nc.sections(d["body"]))))
    return out


def cut_problems(case, run, story, note):
    st = run.thread.get("state") or {}
    mine = {x[1] for x in story.person}
    pieces = [("title", note.get("title"))] + [("tag", tg) for tg in note.get("tags") or []]
    for _, d, _, _ in story.offered:
        pieces += [("offered title", d["title"])] + [("offered tag", tg) for tg in d["tags"]]
    for p in st.get("imagePlans") or []:
        pieces.append(("caption", p.get("description")))
    for o in st.get("textOverlayPlan") or []:
        pieces += [("cover line", o.get("titleText")), ("cover line", o.get("bodyText"))]
    out, done = [], set()
    for what, piece in pieces:
        if not piece or piece in mine or (what, piece) in done:
            continue
        done.add((what, piece))
        src = [x for x in (note.get("title") or "", note.get("body") or "") if x and x != piece]
        why = nc.cut_words(piece, case.topic, case.words, src)
        if why:
            out.append("%s %s" % (what, why))
    return out


def english_problems(run):
    strs = []
    for d in data(run.all()):
        ty = d["type"]
        if ty in ("progress", "message"):
            strs.append((ty + " " + str(d.get("agent")), d.get("content")))
        elif ty == "ask_user":
            strs.append(("ask_user.question", d.get("question")))
            strs += [("ask_user.options", o.get("label")) for o in d.get("options") or []]
            ctx = d.get("context") or {}
            strs += [("ask_user.context.reasons", r) for r in ctx.get("reasons") or []]
            strs += [("context.changes.reasons", r) for r in (ctx.get("changes") or {}).get("reasons") or []]
            strs += [("context.feedback.said", (e or {}).get("said")) for e in ctx.get("feedback") or []
                     if isinstance(e, dict)]
        elif ty == "quality_score":
            strs += [("quality_score.failReasons", r) for r in d.get("failReasons") or []]
            strs += [("quality_score.suggestions", r) for r in d.get("suggestions") or []]
        elif ty == "supervisor_decision":
            strs.append(("supervisor_decision.reason", d.get("reason")))
        elif ty in ("content_update", "workflow_complete"):
            strs += [(ty, d.get("title")), (ty, d.get("body"))] + [(ty + ".tags", x) for x in d.get("tags") or []]
            strs += [(ty + ".quality.reasons", r) for r in (d.get("quality") or {}).get("reasons") or []]
        elif ty == "alignment_map_ready":
            strs += [("image plan description", p.get("description")) for p in d.get("imagePlans") or []]
        elif ty == "error":
            strs.append(("error.message", d.get("message")))
    st = run.thread.get("state") or {}
    for o in st.get("textOverlayPlan") or []:
        strs += [("cover line", o.get("titleText")), ("cover line", o.get("bodyText"))]
    bad = nc.cjk_strings(strs)

    def around(s):
        at = nc.CJK.search(s).start()
        return ("…" if at > 30 else "") + s[max(0, at - 30):at + 20]
    more_ = ["… %d more" % (len(bad) - 4)] if len(bad) > 4 else []
    return ["%s: %r" % (lab, around(s)) for lab, s in bad[:4]] + more_


def bound_problems(case, run, max_iterations):
    """Never a loop: the run ends, within pauses and steps bounded by the
    rejects and maxIterations."""
    rounds = 1 + case.rejects + max_iterations
    pauses, steps = len(run.pauses()), len([d for d in data(run.all(), "agent_start")])
    out = []
    if run.looped:
        out.append("still paused after %d answers" % MAX_CONFIRMS)
    if pauses > 2 * rounds + 3:
        out.append("%d pauses (bound %d)" % (pauses, 2 * rounds + 3))
    if steps > 12 * rounds + 6:
        out.append("%d agent steps (bound %d)" % (steps, 12 * rounds + 6))
    asked = [q.get("node") for q in run.pauses() if q["context"].get("kind") == "clarification"]
    if len(asked) != len(set(asked)):
        out.append("a clarification asked twice (%s)" % asked)
    return out


def decisions_of(run):
    return " → ".join(label(dec) for dec, _, _ in run.segments[1:]
                      if dec and (dec["act"] != "approve" or dec["at"] == "quality") and dec["at"] != "clarification")


def check_common(t, case, run, story, where, max_iterations, stats):
    """The checks of both suites on a run's pauses and reports."""
    name = "%s [%s] %s" % (where, case.name, decisions_of(run) or "approve all")
    for i, (dec, _, _) in enumerate(run.segments):
        if dec and dec["act"] == "reject" and dec["items"]:
            bad = feedback_problems(run, i, stats)
            t.ok(not bad, "%s: %s: every item reported applied or declined, truly%s"
                 % (name, label(dec), "".join("\n  - " + b for b in bad)))
    bad = claim_problems(story)
    t.ok(not bad, "%s: no progress line claims a removal not made%s" % (name, "".join("\n  - " + b for b in bad)))
    bad = repeated_drafts(story)
    t.ok(not bad, "%s: no content pause offers a draft already offered or refused, or only moved%s"
         % (name, "".join("\n  - " + b for b in bad)))
    bad = bound_problems(case, run, max_iterations)
    t.ok(not bad, "%s: never a loop%s" % (name, "".join("\n  - " + b for b in bad)))
    if run.unused:
        t.diag("%s: decisions not used (no such pause came): %s" % (name, ", ".join(label(d) for d in run.unused)))
    return name


def diag_lines(t, name, what, bad):
    return t.ok(not bad, "%s: %s%s" % (name, what, "".join("\n  - " + b for b in bad)))


# -- offline --------------------------------------------------------------------------

def check_offline(t, case, run, tally):
    story = Story(run)
    name = check_common(t, case, run, story, "offline", 3, tally)
    evs = run.all()
    done = data(evs, "workflow_complete")
    ends = [x for x in types(evs) if x in ("workflow_complete", "error", "[DONE]")]
    if not t.ok(done and done[-1].get("title") and done[-1].get("body") and
                (run.thread.get("status") == "done"),
                "%s: ends workflow_complete with a note (events at the end: %s; thread %s; errors %s; "
                "answers refused %s)" % (name, ends[-3:], run.thread.get("status"),
                                         [(e.get("code"), e.get("message")) for e in data(evs, "error")],
                                         run.bad_status)):
        return
    note = done[-1]
    qps = [q for q in run.pauses() if q["context"].get("kind") == "quality"]
    if qps:
        tally["quality"].append(case.name)
        qp = qps[-1]
        want = {"passed": False, "reasons": qp["context"].get("reasons"), "publishedBy": "person"}
        t.is_(note.get("quality"), want, "%s: the quality pause (%s) approved: quality.passed false, by the person"
              % (name, qp["context"].get("limit")))
        if qp["context"].get("limit") == "max_iterations":
            best = story.best()
            t.ok(best and key(qp["context"].get("draft") or {})[:2] == key(best[1])[:2],
                 "%s: the quality pause offers the best-scored draft (%s, best %s)"
                 % (name, (qp["context"].get("draft") or {}).get("title"), best and best[1]["title"]))
    diag_lines(t, name, "every text the person wrote is in the final note word for word",
               missing_person_texts(story, note))
    removed = [it.arg for dec, _, _ in run.segments if dec and dec["act"] == "reject"
               for it in dec["items"] if it.kind == "remove"]
    declined = [ln for ln in (p.get("content") or "" for p in data(evs, "progress"))
                if nc.line_status(ln) == "declined"]
    kept = [w for w in removed if nc.has(nc.text_of(note), w) and
            not any(nc.has(text, w) for _, text, _ in story.person) and
            not any(nc.has(ln, w) for ln in declined)]
    diag_lines(t, name, "a word the person removed is not back in the final note (unless declined)",
               ["「%s」 is in the note 「%s」" % (w, note.get("title")) for w in kept])
    words = [w for w in case.words if w not in removed]
    unnamed = nc.unnamed_sections(note.get("body"), words, KIND_WORDS[case.kind], story.person_bodies)
    diag_lines(t, name, "every section names the topic's words %s (or the kind's)" % "/".join(words),
               ["section %r" % h for h in unnamed])
    check_titles_cuts(t, case, run, story, note, name)
    if case.english:
        diag_lines(t, name, "an English topic's thread is English throughout, reasons included",
                   english_problems(run))


def check_titles_cuts(t, case, run, story, note, name):
    """Every title offered or published names the topic's words (but the
    person's own), and no title, tag, caption or cover line cuts a word."""
    removed = [it.arg for dec, _, _ in run.segments if dec and dec["act"] == "reject"
               for it in dec["items"] if it.kind == "remove"]
    words = [w for w in case.words if w not in removed]
    mine = {text for field, text, _ in story.person if field == "title"}
    titles = []
    for tt in [d["title"] for _, d, _, _ in story.offered] + [note.get("title") or ""]:
        if tt not in titles and tt not in mine:
            titles.append(tt)
    diag_lines(t, name, "every title names the topic's words %s" % "/".join(words),
               ["title %r" % tt for tt in titles if not any(nc.has(tt, w) for w in words)])
    diag_lines(t, name, "no cut word in titles, tags, captions, cover lines", cut_problems(case, run, story, note))


def offline_suite(t, d):
    w = avtest.Worker(t, d, name="offline").start()
    tally = {"quality": [], "applied": 0, "declined": 0, "unreported": 0}
    for row in TOPICS:
        case = Case(row)
        run = drive(w, case)
        if not t.ok(run.tid, "offline [%s]: the run starts" % case.name):
            continue
        check_offline(t, case, run, tally)
    t.diag("offline: %d of %d runs needed the quality pause: %s" % (
        len(tally["quality"]), len(TOPICS), ", ".join(tally["quality"]) or "none"))
    t.diag("offline: feedback items applied %(applied)d, declined %(declined)d, not reported %(unreported)d" % tally)
    w.kill()


# -- against a reviewer that always scores low ----------------------------------------

def check_low(t, case, run, at_quality, tally):
    story = Story(run)
    name = check_common(t, case, run, story, "note-low", LOW_MAX_ITERATIONS, tally)
    evs = run.all()
    qps = [q for q in run.pauses() if q["context"].get("kind") == "quality"]
    if not t.ok(qps, "%s: reaches the quality pause (events at the end: %s; answers refused %s)"
                % (name, types(evs)[-3:], run.bad_status)):
        return
    qp = qps[-1]
    ctx = qp["context"]
    draft = ctx.get("draft") or {}
    reviews = len(data(evs, "quality_score"))
    if ctx.get("limit") == "max_iterations":
        t.is_(reviews, LOW_MAX_ITERATIONS + 1, "%s: maxIterations %d: %d reviews, then the quality pause"
              % (name, LOW_MAX_ITERATIONS, LOW_MAX_ITERATIONS + 1))
        best = story.best()
        t.ok(best and key(draft)[:2] == key(best[1])[:2] and
             ctx.get("overall") == max(r[0] for r in story.reviews),
             "%s: the quality pause offers the best-scored draft (%s; best %s)"
             % (name, draft.get("title"), best and best[1]["title"]))
    best = story.best()
    t.ok(ctx.get("reasons") and (ctx.get("limit") != "max_iterations" or (best and ctx["reasons"] == best[2])),
         "%s: the quality pause (%s) gives the reasons of the review that scored its draft (%s; review: %s)"
         % (name, ctx.get("limit"), ctx.get("reasons"), best and best[2]))
    after = run.segments[-1][2]
    if at_quality == "approve":
        done = data(after, "workflow_complete")
        note = done[-1] if done else {}
        t.ok(note and note.get("quality") == {"passed": False, "reasons": ctx.get("reasons"),
                                              "publishedBy": "person"} and
             note.get("body") == draft.get("body") and run.thread.get("status") == "done",
             "%s: publish: workflow_complete, quality {passed: false, reasons, publishedBy: person} "
             "(got %s, thread %s)" % (name, note.get("quality"), run.thread.get("status")))
    else:
        cr = (run.thread.get("state") or {}).get("creative") or {}
        err = data(after, "error")
        t.ok(run.thread.get("status") == "aborted" and cr.get("status") == "aborted" and
             err and err[-1].get("code") in ("max_iterations", "regeneration_limit", "no_new_draft") and
             (cr.get("title"), cr.get("body")) == (draft.get("title"), draft.get("body")),
             "%s: stop: aborted, the draft kept in state.creative (thread %s, creative %s, error %s)"
             % (name, run.thread.get("status"), cr.get("status"), err and err[-1].get("code")))
        note = cr
    diag_lines(t, name, "every text the person wrote is in what is %s word for word"
               % ("published" if at_quality == "approve" else "kept"), missing_person_texts(story, note))
    check_titles_cuts(t, case, run, story, note, name)


def low_suite(t, d):
    oa = avnotelow.low_fake(t)
    w = avnotelow.low_worker(t, d, oa, "low")
    tally = {"applied": 0, "declined": 0, "unreported": 0}
    for n, row in enumerate(TOPICS):
        case = Case(row)
        at_quality = "approve" if n % 2 == 0 else "reject"
        run = drive(w, case, at_quality, LOW_MAX_ITERATIONS)
        if not t.ok(run.tid, "note-low [%s]: the run starts" % case.name):
            continue
        check_low(t, case, run, at_quality, tally)
    t.diag("note-low: feedback items applied %(applied)d, declined %(declined)d, not reported %(unreported)d"
           % tally)
    w.kill()


def main(t):
    d = t.tmpdir("decisions")
    t.ok(len(TOPICS) >= 40, "%d topics" % len(TOPICS))
    offline_suite(t, d)
    low_suite(t, d)


avtest.run(main)
