#!/usr/bin/python3
"""Writes src/prov/emoji_table.c: the emoji the offline pictures draw.

For each glyph of SUBJECTS below: its CLDR names and keywords in Chinese
and English (unicode-cldr-core's annotations and annotationsDerived) and
its colour bitmap from Noto Color Emoji's CBDT table, as base64 PNG ready
for a data: URI. Only these glyphs go in, so the output stays small and a
build needs neither the font nor the CLDR. Debian 12: python3-fonttools,
python3-pil, unicode-cldr-core, fonts-noto-color-emoji.

    contrib/gen/emoji_table.py > src/prov/emoji_table.c
"""
import base64
import io
import sys
import xml.etree.ElementTree as ET

from fontTools.ttLib import TTFont
from PIL import Image

CLDR = "/usr/share/unicode/cldr/common"
FONT = "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"
SIDE = 72          # bitmap height in pixels: a subject is drawn at most ~1/4 of the picture

# In order of preference: when two glyphs share a word, the earlier wins.
SUBJECTS = (
    # animals
    "🐈🐕🐱🐶🐩🐺🦊🦝🦁🐯🐅🐆🐴🐎🦄🦓🦌🐮🐄🐂🐃🐷🐖🐗🐏🐑🐐🐪🐫🦙🦒🐘🦏🦛🐭🐁🐀🐹🐰🐇"
    "🐿🦔🦇🐻🐨🐼🦥🦦🦘🐾🦃🐔🐓🐣🐤🐥🐦🐧🕊🦅🦆🦢🦉🦤🦩🦚🦜🐸🐊🐢🦎🐍🐲🐉🦕🦖"
    "🐳🐋🐬🦭🐟🐠🐡🦈🐙🐚🐌🦋🐛🐜🐝🐞🕷🦀🦞🦐🦑🦪🪼"
    # plants
    "💐🌸🌹🌺🌻🌼🌷🪷🥀🌱🪴🌲🌳🌴🌵🌾🌿🍀🍁🍂🍃🍄🪨🪵"
    # food
    "🍇🍈🍉🍊🍋🍌🍍🥭🍎🍏🍐🍑🍒🍓🫐🥝🍅🥥🥑🍆🥔🥕🌽🌶🥒🥬🥦🧄🧅🥜🌰🍞🥐🥖🥞🧀"
    "🍖🍗🥩🥓🍔🍟🍕🌭🥪🌮🌯🥗🍿🥚🍳🍲🍱🍙🍚🍜🍝🍣🍤🥮🍡🥟🍦🍧🍨🍩🍪"
    "🎂🍰🧁🥧🍫🍬🍭🍮🍯🍼🥛☕🍵🍶🍷🍸🍹🍺🥂🧋🧊🥢🍴🔪🏺"
    # sky, weather, places
    "🌍🌏🗺🏔⛰🌋🗻🏕🏖🏜🏝🏞🏟🏛🏗🧱🏘🏚🏠🏡🏢🏥🏫🏭🏯🏰💒🗼🗽⛪🕌🛕🕍⛩⛲⛺🌁🌃🏙🌄🌅🌆🌇🌉🎠🎡🎢🎪"
    "☀🌞🌝🌛🌙🌚⭐🌟🌠🌌☁⛅🌤🌦🌧⛈🌩🌨❄⛄☃🌬🌀🌈☂☔⚡🔥💧🌊🪐☄🌕🌑"
    # transport
    "🚂🚄🚅🚆🚇🚊🚝🚞🚌🚑🚒🚓🚕🚗🚙🛻🚚🚛🚜🏎🏍🛵🚲🛴🛹🛼🚦⚓⛵🛶🚤🛳⛴🛥🚢✈🛩🛫🪂🚁🚟🚠🚡🛰🚀🛸"
    # people and figures
    "👶🧒👦👧🧑👱👨🧔👩🧓👴👵👮🕵💂🥷👷🤴👸🤵👰👼🎅🤶🦸🦹🧙🧚🧛🧜🧝🧞🧟💃🕺🧘🏃🚶🧗🏇⛷🏂🏄🏊🚴"
    "🤖👻👽👾💀🎃🤡😀😂😊😍😎😢😡😴"
    # things
    "🎈🎆🎇🧨✨🎉🎊🎀🎁🏆🏅⚽⚾🏀🏐🏈🎾🏓🏸🥊⛳⛸🎣🎿🛷🎯🪁🔮🎮🎲🧩🧸🎭🖼🎨🧶"
    "👓🕶👔👕👖🧣🧤🧥🧦👗👘👙👜🎒👟👠👢👑👒🎩🎓🧢⛑🪖💄💍💎"
    "🔔🎵🎤🎧📻🎷🎸🎹🎺🎻🥁📱☎💻🖥⌨📷🎥📺🔍🕯💡🔦🏮📖📚📜📰💰🪙✉📦📮✏🖌🖍📝"
    "📅📌📍✂🔒🔑🔨🪓🛠🗡⚔🏹🛡🔧⚙⚖🔗⛓🧲🧪🔬🔭📡💊🚪🪞🪟🛏🛋🪑🛁🧸🧹🧺🛒⚰🗿"
    "⌛⏳⌚⏰🌡⛱❤💔💌💤💬💭"
)

# Words people use that CLDR does not list as the glyph's own.
ALIASES = {
    "🐈": "小猫 猫咪 橘猫 kitten kitty",
    "🐕": "小狗 狗狗 puppy doggy 金毛 柯基",
    "🐇": "小兔 兔子 bunny",
    "🐼": "熊猫 panda 大熊猫",
    "🐉": "龙 中国龙",
    "🌊": "海浪 浪花 波浪 wave waves",
    "🏔": "雪山",
    "⛰": "山 群山 山峰 山水 mountains hill",
    "🌲": "松树 pine",
    "🌳": "树 大树 树木 tree",
    "🌸": "樱花 sakura",
    "🌕": "满月 月亮 moon",
    "🏠": "房子 小屋 房屋 木屋 小木屋 屋子 cabin cottage",
    "🚀": "火箭",
    "🏮": "灯笼 lantern",
    "⛵": "帆船 小船 船 boat",
    "🌻": "向日葵",
    "☕": "咖啡 coffee",
    "🍵": "茶 tea",
    "🤖": "机器人 robot 机甲",
    "👧": "女孩 少女 小女孩",
    "👦": "男孩 小男孩",
    "👩": "女人 女子 女性 woman",
    "👨": "男人 男子 男性 man",
    "🧑": "人 人物 person",
    "🐟": "鱼 金鱼 fish",
    "🐦": "鸟 小鸟 bird",
    "🦋": "蝴蝶",
    "🌈": "彩虹",
    "☁": "云 云朵 白云 云海 cloud",
    "⭐": "星 星星 star",
    "🌌": "银河 星空 galaxy milky way",
    "🏰": "城堡 castle",
    "⚽": "球 足球 ball",
    "⛑": "头盔 安全帽 helmet",
    "🏯": "宫殿 palace",
    "🌷": "花 花朵 鲜花 flower flowers",
    "🧒": "孩子 小孩 儿童 kid",
    "💡": "灯泡 台灯 lamp",
    "🚗": "车 小车 car",
    "🌧": "雨 下雨 rain",
    "🌿": "草 小草 grass",
    "💧": "water",
}

# Words that choose a background or name the picture itself, never a glyph.
NOT_SUBJECTS = set("""
海 大海 海洋 海边 sea ocean 天空 天 sky 城市 都市 city 森林 forest 湖 湖泊 lake 房间 室内 room
雪 snow 夜 夜晚 晚上 night 画 图 图片 图像 照片 画面 picture image photo painting drawing poster
海报 风格 style art artwork key lighting light strength 塔 tower 灯 艺术 插画 illustration render 水彩 油画 水墨 素描 像素 sketch pixel oil ink watercolour watercolor
""".split())

# Words too general to choose a glyph: they name a family, a part or a look.
STOP = set("""
face 脸 animal 动物 nature 自然 food 食物 drink 饮料 sign 标志 symbol 符号
person 人 man 男 woman 女 boy girl 男孩 女孩 body object thing 东西 building 建筑
place 地方 weather 天气 sport 运动 game 游戏 other 其他 line 线 button 按钮 mark 标记
light 光 fun play red orange yellow green blue purple brown black white 红 橙 黄 绿 蓝 紫
棕 黑 白 色 大 小 of the and a 和 与 的 big small time 时间 day 白天 hand 手
""".split())
# Words the providers must not name (tests/integ/toolkit_words.py): the
# names of workflows ("note" is the note writer's).
STOP |= {"note", "notes"}


def annotations(lang):
    names, keys = {}, {}
    for sub in ("annotations", "annotationsDerived"):
        root = ET.parse("%s/%s/%s.xml" % (CLDR, sub, lang)).getroot()
        for a in root.iter("annotation"):
            cp = a.get("cp").replace("\ufe0f", "")
            if a.get("type") == "tts":
                names.setdefault(cp, a.text.strip())
            else:
                keys.setdefault(cp, [w.strip() for w in a.text.split("|") if w.strip()])
    return names, keys


def bitmap(font, cbdt, ch):
    glyph = font.getBestCmap().get(ord(ch))
    if glyph is None or glyph not in cbdt.strikeData[0]:
        return None
    data = cbdt.strikeData[0][glyph]
    data.decompile()
    im = Image.open(io.BytesIO(data.imageData)).convert("RGBA")
    w = max(1, im.width * SIDE // im.height)
    im = im.resize((w, SIDE), Image.LANCZOS)
    opaque = [p for p in im.getdata() if p[3] > 200]
    n = len(opaque) or 1
    rgb = tuple(sum(p[k] for p in opaque) // n for k in range(3))
    out = io.BytesIO()
    im.quantize(colors=64, method=Image.Quantize.FASTOCTREE).save(out, "PNG", optimize=True)
    return im.width, im.height, rgb, base64.b64encode(out.getvalue()).decode("ascii")


def cstr(s):
    out = []
    for b in s.encode("utf-8"):
        if b in (0x22, 0x5C):
            out.append("\\" + chr(b))
        elif 0x20 <= b < 0x7F and chr(b) != "?":
            out.append(chr(b))
        else:
            out.append("\\%03o" % b)
    return '"' + "".join(out) + '"'


def fold(word):
    return word.lower().strip()


def glyph_words(ch, names, keys):
    """(word, rank) pairs: rank 0 for a name or an alias, 1 for a keyword."""
    out = []
    for lang in ("zh", "en"):
        if ch in names[lang]:
            out.append((fold(names[lang][ch]), 0))
    for w in ALIASES.get(ch, "").split():
        out.append((fold(w), 0))
    for lang in ("zh", "en"):
        for w in keys[lang].get(ch, []):
            out.append((fold(w), 1))
    return out


def choose_words(glyphs, names, keys):
    """Each word to the glyph it names: a name before a keyword, then the
    earlier glyph; keywords shared by more than three glyphs are left out."""
    count = {}
    for ch in glyphs:
        for w, rank in set(glyph_words(ch, names, keys)):
            if rank:
                count[w] = count.get(w, 0) + 1
    best = {}
    for i, ch in enumerate(glyphs):
        for w, rank in glyph_words(ch, names, keys):
            if w in NOT_SUBJECTS or not any(c.isalpha() for c in w):
                continue
            if (rank and (w in STOP or count.get(w, 0) > 3)) or len(w.encode()) > 40:
                continue
            if w not in best or (rank, i) < best[w]:
                best[w] = (rank, i)
    return sorted((w.encode("utf-8"), i) for w, (rank, i) in best.items())


def main():
    names = {l: annotations(l)[0] for l in ("zh", "en")}
    keys = {l: annotations(l)[1] for l in ("zh", "en")}
    font = TTFont(FONT, lazy=True)
    cbdt = font["CBDT"]
    glyphs, seen, rows = [], set(), []
    for ch in SUBJECTS:
        if ch in seen or ch not in names["en"] or ch not in names["zh"]:
            continue
        bm = bitmap(font, cbdt, ch)
        if bm is None:
            continue
        seen.add(ch)
        glyphs.append(ch)
        rows.append(bm)
    w = sys.stdout.write
    w("/* Generated by contrib/gen/emoji_table.py from Unicode CLDR annotations\n"
      " * (Unicode License) and Noto Color Emoji (SIL Open Font License 1.1):\n"
      " * do not edit. The glyphs the offline pictures draw (scene.h). */\n"
      "#include \"config.h\"\n#include \"prov/emoji_table.h\"\n\n"
      "const struct emoji_glyph emoji_glyphs[] = {\n")
    for ch, (gw, gh, rgb, b64) in zip(glyphs, rows):
        w("\t{ %s, \"%s\", %s, %s, { %d, %d, %d }, %d, %d,\n" % (
            cstr(ch), "%X" % ord(ch), cstr(names["zh"][ch]), cstr(names["en"][ch]),
            rgb[0], rgb[1], rgb[2], gw, gh))
        for k in range(0, len(b64), 96):
            w("\t  \"%s\"%s\n" % (b64[k:k + 96], " }," if k + 96 >= len(b64) else ""))
    w("};\nconst size_t emoji_nglyphs = sizeof emoji_glyphs / sizeof emoji_glyphs[0];\n\n")
    w("/* Sorted by strcmp, for bsearch. */\nconst struct emoji_word emoji_words[] = {\n")
    for word, i in choose_words(glyphs, names, keys):
        w("\t{ %s, %d },\n" % (cstr(word.decode("utf-8")), i))
    w("};\nconst size_t emoji_nwords = sizeof emoji_words / sizeof emoji_words[0];\n")


if __name__ == "__main__":
    main()
