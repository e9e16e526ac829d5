"""The note workflow on a table of topics of our own, offline, end to end.

Each topic (food, travel, study, pets, tech, fitness, home; Chinese and
English) runs through the whole workflow on one worker, every pause
approved. The finished note's title, body and tags must mention the
topic's own words; every sentence it takes from the notes corpus must
come from a note about the topic (one that has the topic's key word);
no word of the topic is split in half in a tag (杭州 never becomes 州…),
nor a word of the segmenter's list (etc/words.txt);
an English topic gets an English note; a topic the corpus does not
cover says so; the review finds each first draft on its topic, with no
section repeated. Reject feedback that asks to leave something out is
applied to body and tags, not echoed.
"""

import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avtest  # noqa: E402
from avevents import data, events  # noqa: E402

# (topic, key words: the note mentions at least one, and corpus evidence
#  must come from notes with one of them; words that must stay whole;
#  whether the corpus covers it (None: not checked))
TOPICS = [
    ("周末去杭州春游的攻略", ["杭州", "春游"], ["杭州", "春游"], True),
    ("第一次去长沙旅游", ["长沙"], ["长沙"], True),
    ("苏州三日游怎么安排", ["苏州"], ["苏州"], True),
    ("武汉东湖看樱花", ["东湖", "樱花"], ["武汉", "东湖", "樱花"], True),
    ("重庆citywalk路线", ["重庆"], ["重庆", "citywalk"], True),
    ("哈尔滨冬天旅游攻略", ["哈尔滨"], ["哈尔滨"], True),
    ("成都三天两夜怎么玩", ["成都"], ["成都"], True),
    ("泉州小众景点", ["泉州"], ["泉州"], True),
    ("自驾318国道", ["318"], ["318国道"], True),
    ("重庆火锅测评", ["火锅"], ["重庆", "火锅"], False),
    ("麻婆豆腐的家常做法", ["麻婆豆腐"], ["麻婆豆腐"], True),
    ("番茄炒蛋怎么做好吃", ["番茄炒蛋"], ["番茄炒蛋"], True),
    ("一周减脂餐食谱", ["减脂餐"], ["减脂餐"], True),
    ("红烧肉新手做法", ["红烧肉"], ["红烧肉"], True),
    ("夏天自制绿豆沙", ["绿豆沙"], ["绿豆沙"], True),
    ("上海咖啡探店", ["咖啡"], ["上海", "咖啡"], None),
    ("雅思单词怎么背", ["雅思", "单词"], ["雅思", "单词"], True),
    ("考研英语复习计划", ["考研", "英语"], ["考研", "英语"], True),
    ("教资备考经验", ["教资"], ["教资", "备考"], True),
    ("法考备考时间安排", ["法考"], ["法考"], True),
    ("图书馆自律学习", ["自律", "图书馆"], ["图书馆", "自律"], True),
    ("错题本怎么整理", ["错题本"], ["错题本"], True),
    ("猫咪挑食怎么办", ["挑食"], ["猫咪", "挑食"], True),
    ("新手养狗指南", ["养狗", "狗"], ["养狗"], True),
    ("仓鼠零食自制", ["仓鼠"], ["仓鼠", "零食"], True),
    ("带猫咪打疫苗", ["疫苗"], ["猫咪", "疫苗"], True),
    ("领养代替购买的故事", ["领养"], [], True),
    ("学生党手机怎么选", ["手机"], ["手机", "学生党"], True),
    ("机械键盘使用体验", ["机械键盘", "键盘"], ["机械键盘"], True),
    ("降噪耳机推荐", ["耳机"], ["降噪耳机"], True),
    ("AI工具的日常用法", ["AI"], ["AI工具"], True),
    ("智能手表对比", ["智能手表"], ["智能手表"], True),
    ("新手跑步入门", ["跑步"], ["跑步"], True),
    ("普拉提体态改善", ["普拉提", "体态"], ["普拉提", "体态"], True),
    ("居家燃脂训练", ["燃脂"], ["燃脂"], True),
    ("跳绳减脂打卡", ["跳绳"], ["跳绳", "减脂"], True),
    ("马甲线塑形跟练", ["马甲线"], ["马甲线"], True),
    ("小户型收纳技巧", ["收纳"], ["小户型", "收纳"], True),
    ("帮我写一篇关于新手养猫的笔记", ["养猫"], ["养猫"], True),
    ("how to train a puppy", ["puppy"], [], False),
    ("a weekend hiking trip", ["hiking"], [], False),
    ("easy breakfast recipes", ["breakfast"], [], False),
    ("ielts vocabulary study plan", ["ielts", "vocabulary"], [], False),
    ("choosing a laptop for college", ["laptop"], [], False),
    ("beginner strength workout at home", ["workout", "strength"], [], False),
]


def post(w, path, obj):
    r = w.request("POST", path, body=json.dumps(obj), headers={"Content-Type": "application/json"},
                  timeout=60)
    return events(r.body)


def run_note(w, topic, reject=None):
    """Starts a note and approves every pause (rejects the first content
    pause with feedback when given); all events."""
    evs = post(w, "/api/agent/stream", {"workflow": "note", "input": {"topic": topic}})
    seen = list(evs)
    tid = data(evs, "thread_start")[0]["threadId"]
    for _ in range(8):
        q = data(evs, "ask_user")
        if not q or not data(evs, "workflow_paused"):
            break
        body = {"threadId": tid, "interruptId": q[-1]["interruptId"], "action": "approve"}
        if reject and q[-1]["context"]["kind"] == "content":
            body.update(action="reject", payload={"feedback": reject})
            reject = None
        evs = post(w, "/api/agent/confirm", body)
        seen += evs
    return seen


def corpus_sentences():
    """Every sentence of the corpus's bodies, with the notes it is in; a
    sentence that starts with a label or a day ("小贴士：…", "第一天上午：…")
    also without it, as a note of a kind quotes it under its own heading
    ("上午：…" under 第一天)."""
    with open(avtest.src_path("etc", "notes.json")) as f:
        notes = json.load(f)
    out = {}
    for n in notes:
        for s in re.findall(r"[^。！？\n]+[。！？]", n["body"]):
            forms = {s}
            label = re.match(r"^(第[一二三四五六七1-7]天|[^：，。]{1,12}：)(.+)$", s)
            if label and len(label.group(2)) >= 12:
                forms.add(label.group(2))
            for form in forms:
                out.setdefault(form, []).append(n)
    return out


def about(note, keys):
    text = (note["title"] + " " + " ".join(note["tags"]) + " " + note["body"]).lower()
    return any(k.lower() in text for k in keys)


def split_words(topic, whole, tags):
    """Tags cut out of the topic across one of its whole words."""
    bad = []
    for tag in tags:
        at = topic.find(tag)
        if at < 0:
            continue
        end = at + len(tag)
        for w in whole:
            for m in re.finditer(re.escape(w), topic):
                if m.start() < at < m.end() or m.start() < end < m.end():
                    bad.append(tag)
    return bad


def listed_words():
    """The words of etc/words.txt: the segmenter keeps them whole."""
    with open(avtest.src_path("etc", "words.txt")) as f:
        return [ln.strip() for ln in f if ln.strip() and not ln.startswith("#")]


LISTED = listed_words()


def bigrams(s):
    out = {}
    for i in range(len(s) - 1):
        out[s[i:i + 2]] = out.get(s[i:i + 2], 0) + 1
    return out


def alike(a, b):
    """The Dice coefficient of two lines' character bigrams."""
    ga, gb = bigrams(a), bigrams(b)
    shared = sum(min(n, gb.get(k, 0)) for k, n in ga.items())
    total = sum(ga.values()) + sum(gb.values())
    return 2.0 * shared / total if total else 0.0


def alike_lines(body):
    """Pairs of body lines (12 characters or more) that say the same thing
    with another name in it: 可乐现在每天… and 橘子现在每天…."""
    lines = [ln.strip() for ln in body.splitlines() if len(ln.strip()) >= 12]
    return [(a, b) for i, a in enumerate(lines) for b in lines[i + 1:] if alike(a, b) >= 0.75]


def check(t, topic, keys, whole, covered, seen, sentences):
    done = data(seen, "workflow_complete")
    t.ok(done, "%s: the workflow completes" % topic)
    if not done:
        return
    note = done[-1]
    title, body, tags = note["title"], note["body"], note["tags"]
    low = (title + " " + body + " " + " ".join(tags)).lower()
    t.ok(any(k.lower() in title.lower() for k in keys) or topic.lower() in title.lower(),
         "%s: the title names the topic (%s)" % (topic, title))
    t.ok(any(k.lower() in body.lower() for k in keys), "%s: the body names the topic" % topic)
    t.ok(any(k.lower() in " ".join(tags).lower() for k in keys) or
         any(k.lower() in tg.lower() for tg in tags for k in whole),
         "%s: the tags name the topic (%s)" % (topic, " ".join(tags)))
    foreign = [s for s, ns in sentences.items() if s in body and not any(about(n, keys) for n in ns)]
    t.is_(foreign, [], "%s: no evidence from notes about other topics" % topic)
    t.is_(split_words(topic, whole, tags), [], "%s: no word of the topic split in a tag" % topic)
    listed = [w for w in LISTED if w in topic]
    t.is_(split_words(topic, listed, tags), [],
          "%s: no listed word (%s) split in a tag" % (topic, " ".join(listed)))
    english = not re.search(r"[\u4e00-\u9fff]", topic)
    if english:
        t.ok(not re.search(r"[\u4e00-\u9fff]", title + body + "".join(tags)),
             "%s: an English topic gets an English note" % topic)
    if covered is not None:
        used = [s for s in sentences if s in body]
        t.is_(bool(used), covered, "%s: corpus evidence used: %s" % (topic, covered))
        if not covered:
            said = [m["content"] for m in data(seen, "message")
                    if m.get("agent") == "research_evidence_agent"]
            t.ok(any("没有" in m or "nothing" in m for m in said),
                 "%s: research says the corpus has nothing (%s)" % (topic, said[:1]))
            t.ok("笔记库" not in body and "notes corpus" not in body,
                 "%s: and the published note does not talk about the corpus" % topic)
    t.ok("解决一些日常的小麻烦" not in low, "%s: no generic filler" % topic)
    heads = re.findall(r"^(?:[一二三四五六]、|\d+\. )(.+)$", body, re.M)
    t.is_(len(heads), len(set(heads)), "%s: no repeated section" % topic)
    t.is_(alike_lines(body), [], "%s: no two lines alike (a template's line with another name)" % topic)


def test_feedback(t, w):
    seen = run_note(w, "新手养猫指南", reject="不要提宠物")
    cu = data(seen, "content_update")
    draft = cu[1] if len(cu) > 1 else {}
    body, tags = draft.get("body", ""), draft.get("tags", [])
    pets = ["宠物", "萌宠"]
    t.ok(draft and not any(p in body for p in pets) and not any(p in g for g in tags for p in pets),
         "不要提宠物: the redraft has no 宠物/萌宠 in body or tags (%s)" % " ".join(tags))
    t.ok("不要提宠物" not in body, "the feedback is applied, not echoed into the body")
    t.ok(any("已按反馈删去" in d["content"] for d in data(seen, "progress")),
         "the writer says what it left out")


def test_request_wrapper(t, w):
    """A request worded as an instruction ("写一篇…的小红书笔记") is read for
    its subject: "笔记" there is the kind of post, not a study topic."""
    topic = "写一篇杭州西湖春季一日游的小红书笔记"
    done = data(run_note(w, topic), "workflow_complete")
    body = done[-1]["body"] if done else ""
    t.ok("上午：" in body and "方法与节奏" not in body and "真题" not in body,
         "%s: a travel plan by time of day, not study advice (%s)" % (topic, body[:80].replace("\n", " ")))
    title = done[-1].get("title", "") if done else ""
    t.ok("杭州西湖春季一日游" in title and "写一篇" not in title and "写一篇" not in body,
         "%s: the title and body name the subject, not the request (%s / %s)"
         % (topic, title, body[:30].replace("\n", " ")))


def main(t):
    d = t.tmpdir("topics")
    w = avtest.Worker(t, d).start()
    sentences = corpus_sentences()
    t.ok(len(TOPICS) >= 40, "%d topics" % len(TOPICS))
    for topic, keys, whole, covered in TOPICS:
        seen = run_note(w, topic)
        check(t, topic, keys, whole, covered, seen, sentences)
        q = data(seen, "quality_score")
        t.ok(q and not any(w in r for r in q[0]["failReasons"] for w in ("偏离主题", "仍提到", "重复")),
             "%s: the review finds the first draft on its topic, no section repeated (%s)"
             % (topic, q and q[0]["failReasons"]))
        if os.environ.get("NOTE_TOPICS_SHOW"):
            done = data(seen, "workflow_complete") or [{}]
            t.diag("%s\n%s\n%s\n%s" % (topic, done[-1].get("title"), done[-1].get("body"),
                                       done[-1].get("tags")))
    test_feedback(t, w)
    test_request_wrapper(t, w)
    w.kill()


avtest.run(main)
