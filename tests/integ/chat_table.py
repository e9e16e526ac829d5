"""The chat assistant offline, as a table of requests nobody tuned the rules
on, in Chinese and English, through a real worker behind lighttpd: each
request's route (intent_detected, and the route that answered) and what
its reply says.

- Idioms and figures of speech with 画 / draw / paint are conversation,
  never a picture; a question with a weekday or a date in it is the clock's
  only when it asks for the date or the time.
- A time question that names places answers in each place's zone: the
  local date, time and UTC offset checked against Python's zoneinfo at the
  answer's own Unix time; a country with several zones says which city's
  time it gives.
- "What's new with X", "latest X", "X news" search; offline the answer
  says it comes from the built-in notes and cites only notes about the
  question (every cited note names the topic), or says there are none.
- A picture request's prompt keeps the subject and its style without the
  request around it ("吗，要" never left in it).
- Greetings, small talk and "what can you do" get short replies in the
  thread's language, saying what works offline, with examples to click;
  every example, sent back, is answered by a route that works offline."""

import datetime
import json
import os
import re
import sys
from zoneinfo import ZoneInfo

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avtest  # noqa: E402
from avevents import data, events  # noqa: E402

CJK = re.compile(r"[\u4e00-\u9fff]")

IDIOMS = [
    "老板天天给我们画饼，怎么办",
    "这个结尾有点画蛇添足了吧",
    "你这句话真是画龙点睛",
    "别画地为牢，多出去走走",
    "这学期的课终于画上句号了",
    "Let's draw conclusions after the meeting",
    "We need to draw a line under last year's mistakes",
    "It's back to the drawing board for our app",
    "The article paints a grim picture of the housing market",
    "Where do you draw the line between friendship and work?",
]

NOT_TIME = [
    "星期几去爬山人少一点",
    "几月几号出发去云南比较好",
    "我现在没有时间看书",
]

# (request, [zones of the places it names, in order], several zones)
PLACES = [
    ("伦敦现在几点了", ["Europe/London"], False),
    ("悉尼现在几点？", ["Australia/Sydney"], False),
    ("日本现在几点", ["Asia/Tokyo"], False),
    ("巴西现在几点", ["America/Sao_Paulo"], True),
    ("洛杉矶和柏林现在几点", ["America/Los_Angeles", "Europe/Berlin"], False),
    ("首尔时间", ["Asia/Seoul"], False),
    ("What time is it in Paris?", ["Europe/Paris"], False),
    ("what's the time in New Delhi", ["Asia/Kolkata"], False),
    ("Current time in Moscow", ["Europe/Moscow"], False),
    ("Dubai time?", ["Asia/Dubai"], False),
    ("What time is it in Canada right now?", ["America/Toronto"], True),
]

# (request, the topic every cited note must name, or None: no note is about it)
SEARCHES = [
    ("what's new with Python", None),
    ("latest news about electric cars", None),
    ("SpaceX news", None),
    ("搜一下量子计算的最新进展", None),
    ("咖啡豆有什么新消息", "咖啡豆"),
    ("最近有什么育儿新闻", "育儿"),
]

# (request, the prompt drawn)
PICTURES = [
    ("生成一张水彩风格的山间小屋海报", "水彩风格的山间小屋海报"),
    ("能帮我画一只狐狸吗，要油画的", "一只油画风格的狐狸"),
    ("请给我画一幅水墨风格的江南小镇，谢谢", "水墨风格的江南小镇"),
    ("Could you draw me a picture of a red panda eating bamboo, please?",
     "a red panda eating bamboo"),
]

# (input, language of the reply, examples offered, longest reply in characters)
TALK = [
    ({"text": "嗨"}, "zh", True, 160),
    ({"text": "Hi there!"}, "en", True, 300),
    ({"text": "你都能干些什么？"}, "zh", True, 400),
    ({"text": "What can you do offline?"}, "en", True, 600),
    ({"text": "多谢！"}, "zh", True, 80),
    ({"text": "Thanks a lot"}, "en", True, 160),
    ({"text": "再见"}, "zh", False, 40),
    ({"text": "how's it going?"}, "en", True, 300),
    ({"text": "好的", "lang": "en"}, "en", True, 160),
]


class Turn:
    def __init__(self, lt, inp, tid=None):
        body = {"workflow": "chat", "input": inp}
        if tid:
            body["threadId"] = tid
        self.status, _, raw = lt.request("POST", "/api/agent/stream", json.dumps(body),
                                         {"Content-Type": "application/json"}, timeout=60)
        self.evs = events(raw)
        start = data(self.evs, "thread_start")
        self.tid = start[0]["threadId"] if start else tid
        self.intent = (data(self.evs, "intent_detected") or [{}])[-1]
        self.done = (data(self.evs, "workflow_complete") or [{}])[-1]
        self.msg = (data(self.evs, "message") or [{}])[-1]
        self.text = self.done.get("content", "")
        st = lt.request("GET", "/api/threads/" + self.tid)[2] if self.tid else b"{}"
        self.state = json.loads(st).get("state", {})

    def tools(self):
        return [c["tool"] for c in self.done.get("toolCalls", [])]


def check_idioms(t, lt):
    for text in IDIOMS + NOT_TIME:
        r = Turn(lt, {"text": text})
        t.is_((r.intent.get("route"), r.done.get("route")), ("chat", "chat"),
              "%s: a conversation (rule %s)" % (text, r.intent.get("rule")))
        t.ok("generatedImageUrl" not in r.done and "image_gen" not in r.tools()
             and "time_query" not in r.tools(), "%s: no picture, no clock" % text)


def local(unix, zone, lang):
    d = datetime.datetime.fromtimestamp(unix, ZoneInfo(zone))
    date = "%d年%d月%d日" % (d.year, d.month, d.day) if lang == "zh" else d.strftime("%Y-%m-%d")
    off = d.strftime("%z")
    return date, d.strftime("%H:%M:%S"), off


def check_places(t, lt):
    for text, zones, several in PLACES:
        lang = "zh" if CJK.search(text) else "en"
        r = Turn(lt, {"text": text})
        t.is_((r.intent.get("route"), r.done.get("route")), ("time_query", "time_query"),
              "%s: the clock answers" % text)
        facts = r.state.get("time", {})
        got = [p["timezone"] for p in facts.get("places", [facts])]
        t.is_(got, zones, "%s: the zones of the places named" % text)
        lines = r.text.split("\n")
        t.is_(len(lines), len(zones), "%s: one line per place" % text)
        for zone, line in zip(zones, lines):
            date, hms, off = local(facts.get("unix", 0), zone, lang)
            t.ok(date in line and hms in line and ("UTC" + off) in line and zone in line,
                 "%s: %s's local time as zoneinfo has it (%s %s UTC%s): %s"
                 % (text, zone, date, hms, off, line))
        t.is_(bool(re.search("多个时区|several time zones", r.text)), several,
              "%s: says whether the country has several zones" % text)
        t.is_(bool(CJK.search(r.text)), lang == "zh", "%s: answered in the question's language" % text)


# Another day (request, its zone (None: the server's), days from today, or a weekday of a week:
# ("week", weeks from this one, Monday 1 … Sunday 7)).
DAYS = [
    ("明天星期几", None, 1),
    ("后天是几号", None, 2),
    ("昨天是几号", None, -1),
    ("下周三是几号", None, ("week", 1, 3)),
    ("上周五是几号", None, ("week", -1, 5)),
    ("what day is it tomorrow", None, 1),
    ("what day is it tomorrow in Tokyo", "Asia/Tokyo", 1),
    ("东京明天是几号", "Asia/Tokyo", 1),
]


def check_days(t, lt):
    for text, zone, days in DAYS:
        lang = "zh" if CJK.search(text) else "en"
        r = Turn(lt, {"text": text})
        t.is_(r.intent.get("route"), "time_query", "%s: the clock answers" % text)
        unix = r.state.get("time", {}).get("unix", 0)
        zone = zone or r.state.get("time", {}).get("timezone") or "UTC"
        today = datetime.datetime.fromtimestamp(unix, ZoneInfo(zone)).date()
        if isinstance(days, tuple):
            want = today - datetime.timedelta(days=today.isoweekday() - 1) + \
                datetime.timedelta(days=7 * days[1] + days[2] - 1)
        else:
            want = today + datetime.timedelta(days=days)
        date = "%d年%d月%d日" % (want.year, want.month, want.day) if lang == "zh" else want.strftime("%Y-%m-%d")
        wd = "星期" + "一二三四五六日"[want.isoweekday() - 1] if lang == "zh" else want.strftime("%A")
        t.ok(date in r.text and wd in r.text, "%s: the day asked, as zoneinfo has it (%s %s): %s"
             % (text, date, wd, r.text))


def notes_about(topic):
    with open(avtest.src_path("etc", "notes.json"), encoding="utf-8") as f:
        notes = json.load(f)
    notes = notes if isinstance(notes, list) else notes.get("notes", [])
    return {n["title"]: topic in (n["title"] + n["body"] + " ".join(n.get("tags", [])))
            for n in notes}


def check_searches(t, lt):
    for text, topic in SEARCHES:
        zh = bool(CJK.search(text))
        r = Turn(lt, {"text": text})
        t.is_(r.intent.get("route"), "web_search", "%s: a search (rule %s)" % (text, r.intent.get("rule")))
        t.ok(("内置笔记" if zh else "built-in notes") in r.text and
             ("没有联网搜索" if zh else "no web search") in r.text,
             "%s: says it is the built-in notes, not the web: %s" % (text, r.text[:100]))
        cited = re.findall(r"^\d+\. 《(.+?)》" if zh else r'^\d+\. "(.+?)":', r.text, re.M)
        if topic is None:
            t.is_(cited, [], "%s: no note cited" % text)
            t.ok(("没有关于" if zh else "nothing in the built-in notes") in r.text,
                 "%s: says no note is about it" % text)
        else:
            about = notes_about(topic)
            t.ok(cited and all(about.get(c) for c in cited),
                 "%s: cites only notes about %s: %s" % (text, topic, cited))


def check_pictures(t, lt):
    for text, prompt in PICTURES:
        r = Turn(lt, {"text": text})
        t.is_((r.intent.get("route"), r.done.get("route")), ("image_gen", "image_gen"),
              "%s: a picture" % text)
        got = [c["input"]["prompt"] for c in r.done.get("toolCalls", []) if c["tool"] == "image_gen"]
        t.is_(got, [prompt], "%s: the prompt drawn" % text)
        t.ok(r.done.get("generatedImageUrl", "").startswith("api/assets/"), "%s: the picture" % text)


def check_talk(t, lt):
    tried = set()
    for inp, lang, offers, longest in TALK:
        text = inp["text"]
        r = Turn(lt, inp)
        t.is_((r.intent.get("route"), r.done.get("route")), ("chat", "chat"), "%s: a conversation" % text)
        first = re.split(r"[。！？.!?\n]", r.text)[0]
        t.is_(bool(CJK.search(first)), lang == "zh", "%s: answered in %s: %s" % (text, lang, r.text))
        t.ok(0 < len(r.text) <= longest, "%s: short (%d characters)" % (text, len(r.text)))
        ex = r.msg.get("examples")
        t.is_(ex == r.done.get("examples"), True, "%s: the message and the result offer the same" % text)
        if not offers:
            t.ok(ex is None, "%s: no examples after a goodbye" % text)
            continue
        t.ok(isinstance(ex, list) and len(ex) == 3 and all(isinstance(x, str) and x for x in ex),
             "%s: three examples to click: %s" % (text, ex))
        t.ok(("离线" if lang == "zh" else "offline") in r.text.lower(), "%s: says what works offline" % text)
        t.ok(all(bool(CJK.search(x.split(" ")[0])) == (lang == "zh") for x in ex or []),
             "%s: examples in %s" % (text, lang))
        for x in ex or []:
            if x in tried:
                continue
            tried.add(x)
            e = Turn(lt, {"text": x}, r.tid)
            t.ok(e.intent.get("route") in ("image_gen", "time_query", "web_search") and
                 e.done.get("route") == e.intent.get("route"),
                 "example %s: answered offline by %s" % (x, e.done.get("route")))


def main(t):
    d = t.tmpdir("chat_table")
    lt = avtest.Lighttpd(t, os.path.join(d, "lt"), workers=1).start()
    check_idioms(t, lt)
    check_places(t, lt)
    check_days(t, lt)
    check_searches(t, lt)
    check_pictures(t, lt)
    check_talk(t, lt)
    lt.stop()


if __name__ == "__main__":
    avtest.run(main)
