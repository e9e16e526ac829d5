#!/usr/bin/python3
"""Writes src/wf/chat/chat_zones_table.c: the places the chat assistant's
clock knows, each with its time zone, for "东京现在几点" / "what time is it
in London".

From Debian's unicode-cldr-core (CLDR): the zones (bcp47/timezone.xml),
their exemplar cities in Chinese and English (main/zh.xml, main/en.xml,
main/root.xml; English names not listed there are the zone id's last part),
which country each zone is in (supplemental/windowsZones.xml, else the
zone's UN/LOCODE short id), the countries' names in both languages and the
zone of a country with several (supplemental/metaZones.xml primaryZones).
The IANA name of a zone is its alias that tzdata (tzdata.zi) defines as a
zone, else CLDR's own id. CAPITALS below adds the capitals and the large
cities CLDR names no zone after, and the zone a country with several zones
is given (its capital's). The output is committed, so a build needs neither
package.

    contrib/gen/cldr_zones.py > src/wf/chat/chat_zones_table.c
"""
import sys
import unicodedata
import xml.etree.ElementTree as ET

CLDR = "/usr/share/unicode/cldr/common"
TZDATA = "/usr/share/zoneinfo/tzdata.zi"

# Capitals and large cities that no zone is named after: (Chinese names,
# English names, IANA zone). A country with several zones takes its
# capital's, marked by the country code.
CAPITALS = (
    ("北京", "Beijing Peking", "Asia/Shanghai", "CN"),
    ("广州 深圳 杭州 成都 重庆 武汉 西安 南京 天津 苏州", "Guangzhou Shenzhen Hangzhou Chengdu Chongqing Wuhan Xi'an Nanjing Tianjin Suzhou", "Asia/Shanghai", None),
    ("华盛顿 华府", "Washington", "America/New_York", "US"),
    ("旧金山 西雅图 圣地亚哥 硅谷", "San Francisco|Seattle|San Diego|Silicon Valley", "America/Los_Angeles", None),
    ("波士顿 迈阿密 费城 亚特兰大", "Boston Miami Philadelphia Atlanta", "America/New_York", None),
    ("休斯顿 达拉斯 奥斯汀", "Houston Dallas Austin", "America/Chicago", None),
    ("渥太华", "Ottawa", "America/Toronto", "CA"),
    ("巴西利亚", "Brasília Brasilia", "America/Sao_Paulo", "BR"),
    ("里约热内卢 里约", "Rio de Janeiro|", "America/Sao_Paulo", None),
    ("堪培拉", "Canberra", "Australia/Sydney", "AU"),
    ("惠灵顿", "Wellington", "Pacific/Auckland", "NZ"),
    ("新德里 德里 孟买 班加罗尔", "New Delhi|Delhi|Mumbai|Bangalore|Bengaluru", "Asia/Kolkata", "IN"),
    ("莫斯科", "", "Europe/Moscow", "RU"),
    ("圣彼得堡", "Saint Petersburg|St. Petersburg", "Europe/Moscow", None),
    ("墨西哥城", "", "America/Mexico_City", "MX"),
    ("布宜诺斯艾利斯", "", "America/Argentina/Buenos_Aires", "AR"),
    ("阿斯塔纳", "Astana", "Asia/Almaty", "KZ"),
    ("雅加达", "", "Asia/Jakarta", "ID"),
    ("金沙萨", "", "Africa/Kinshasa", "CD"),
    ("乌兰巴托", "", "Asia/Ulaanbaatar", "MN"),
    ("基辅", "", "Europe/Kiev", "UA"),
    ("马德里", "", "Europe/Madrid", "ES"),
    ("巴塞罗那", "Barcelona", "Europe/Madrid", None),
    ("里斯本", "", "Europe/Lisbon", "PT"),
    ("基多", "Quito", "America/Guayaquil", "EC"),
    ("安卡拉", "Ankara", "Europe/Istanbul", None),
    ("伊斯兰堡", "Islamabad", "Asia/Karachi", None),
    ("比勒陀利亚 开普敦", "Pretoria|Cape Town", "Africa/Johannesburg", None),
    ("阿布贾", "Abuja", "Africa/Lagos", None),
    ("河内", "Hanoi", "Asia/Ho_Chi_Minh", None),
    ("伯尔尼 日内瓦", "Bern|Geneva", "Europe/Zurich", None),
    ("拉巴特", "Rabat", "Africa/Casablanca", None),
    ("阿布扎比", "Abu Dhabi|", "Asia/Dubai", None),
    ("内比都", "Naypyidaw", "Asia/Yangon", None),
    ("多多马", "Dodoma", "Africa/Dar_es_Salaam", None),
    ("大阪 京都", "Osaka Kyoto", "Asia/Tokyo", None),
    ("釜山", "Busan", "Asia/Seoul", None),
    ("曼彻斯特 爱丁堡", "Manchester Edinburgh", "Europe/London", None),
    ("慕尼黑 法兰克福 汉堡", "Munich Frankfurt Hamburg", "Europe/Berlin", None),
    ("米兰 威尼斯 佛罗伦萨", "Milan Venice Florence", "Europe/Rome", None),
    ("智利", "", "America/Santiago", "CL"),
    ("努克", "", "America/Godthab", "GL"),
    ("莫尔兹比港", "", "Pacific/Port_Moresby", "PG"),
    ("帕皮提", "Papeete", "Pacific/Tahiti", "PF"),
    ("塔拉瓦", "Tarawa", "Pacific/Tarawa", "KI"),
    ("帕利基尔", "Palikir", "Pacific/Pohnpei", "FM"),
    ("马朱罗", "", "Pacific/Majuro", "MH"),
    ("乌鲁木齐", "Urumqi", "Asia/Urumqi", None),
    ("塔什干", "", "Asia/Tashkent", "UZ"),
    ("科威特城", "Kuwait City|", "Asia/Kuwait", None),
    ("哥本哈根", "", "Europe/Copenhagen", "DK"),
    ("科隆 杜塞尔多夫", "Cologne Dusseldorf", "Europe/Berlin", None),
    ("巴黎", "", "Europe/Paris", "FR"),
    ("伦敦", "", "Europe/London", "GB"),
    ("阿姆斯特丹", "", "Europe/Amsterdam", "NL"),
    ("吉隆坡", "", "Asia/Kuala_Lumpur", "MY"),
    ("尼科西亚", "", "Asia/Nicosia", "CY"),
    ("那霸 冲绳", "Okinawa", "Asia/Tokyo", None),
    ("阿瓦鲁阿", "Avarua", "Pacific/Rarotonga", None),
    ("伊斯坦布尔", "", "Europe/Istanbul", "TR"),
    ("檀香山 夏威夷", "Hawaii", "Pacific/Honolulu", None),
    ("阿拉斯加", "Alaska", "America/Anchorage", None),
    ("乌斯怀亚", "Ushuaia", "America/Argentina/Ushuaia", None),
    ("蒙特利尔", "Montreal", "America/Toronto", None),
)

# Names that are mostly words, not places, in a question about the time.
STOP = {
    "万象", "卡宴", "天堂", "Center", "Knox", "Casey", "Davis", "Palmer", "Troll", "Vostok",
    "Mawson", "Macquarie", "Jersey", "Chad", "Christmas", "Easter", "Midway", "Wake",
    "Johnston", "Resolute", "Stanley", "Regina", "Guernsey", "Turkey", "Eucla", "Currie",
    "Mayotte", "Beulah", "Vevay", "Monticello", "Petersburg", "Tell City", "Marengo",
    "Winamac", "Vincennes", "New Salem", "Creston", "Cocos", "Tortola",
}

ZONE_SKIP = ("Etc/", "Antarctica/")


def xml(path):
    return ET.parse("%s/%s" % (CLDR, path)).getroot()


def tzdata_zones():
    out = set()
    with open(TZDATA, encoding="utf-8") as f:
        for line in f:
            if line.startswith("Z "):
                out.add(line.split()[1])
    return out


def exemplars(root):
    return {z.get("type"): z.findtext("exemplarCity") for z in root.iter("zone")
            if z.findtext("exemplarCity")}


def territories(root):
    names = {}
    for t in root.iter("territory"):
        code = t.get("type")
        if len(code) == 2 and code.isalpha() and code not in ("EU", "EZ", "UN", "QO", "ZZ", "AQ"):
            names.setdefault(code, [])
            if t.get("alt") in (None, "short", "variant") and t.text:
                names[code].append(t.text)
    return names


def zones(tz):
    """[(cldr id, iana id, short id)] of the live zones."""
    out = []
    for t in xml("bcp47/timezone.xml").iter("type"):
        alias = (t.get("alias") or "").split()
        if not alias or t.get("deprecated") == "true" or "/" not in alias[0]:
            continue
        if alias[0].startswith(ZONE_SKIP):
            continue
        iana = next((a for a in alias if a in tz), alias[0])
        out.append((alias[0], iana, t.get("name"), alias))
    return out


def zone_territory():
    out = {}
    for m in xml("supplemental/windowsZones.xml").iter("mapZone"):
        if m.get("territory") in ("001", "ZZ"):
            continue
        for z in m.get("type").split():
            out.setdefault(z, m.get("territory"))
    return out


def fold(s):
    s = "".join(c for c in unicodedata.normalize("NFKD", s) if not unicodedata.combining(c))
    return s.replace("’", "'")


def en_names(cldr, iana, en, root):
    names = []
    for n in (en.get(cldr), root.get(cldr), cldr.rsplit("/", 1)[1].replace("_", " "),
              iana.rsplit("/", 1)[1].replace("_", " ")):
        if n:
            names += [n, fold(n).replace("’", "'")]
    return names


def c_str(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def main():
    tz = tzdata_zones()
    zh_ex, en_ex, root_ex = exemplars(xml("main/zh.xml")), exemplars(xml("main/en.xml")), \
        exemplars(xml("main/root.xml"))
    zh_terr, en_terr = territories(xml("main/zh.xml")), territories(xml("main/en.xml"))
    primary = {p.get("iso3166"): p.text for p in xml("supplemental/metaZones.xml").iter("primaryZone")}
    where = zone_territory()

    ids, zone_of, alias_of, info = [], {}, {}, []
    by_terr = {}
    for cldr, iana, short, alias in zones(tz):
        terr = where.get(cldr) or (short[:2].upper() if len(short) >= 5 else None)
        if terr not in zh_terr:
            continue
        zone_of[cldr] = len(ids)
        for a in alias:
            alias_of[a] = len(ids)
        ids.append(iana)
        en = en_names(cldr, iana, en_ex, root_ex)
        info.append((iana, zh_ex.get(cldr) or en[0], en[0]))
        by_terr.setdefault(terr, []).append(len(ids) - 1)

    places = {}  # (name, flags) -> zone

    def add(name, zone, flags):
        name = name.strip()
        if not name or name in STOP or len(name) < 2:
            return
        if not all(ord(c) < 0x2E80 for c in name) and len(name) < 2:
            return
        if name.isupper() and name.isascii():
            key = name                      # US, UK: matched with their case
        elif name[0].isascii():
            key = fold(name).lower()        # the clock folds Latin-1 marks away too
        else:
            key = name
        if key in places:
            return
        places[key] = (zone, flags | (4 if key == name and name.isascii() and name.isupper() else 0))

    for cldr, i in zone_of.items():
        iana, zh, en = info[i]
        if cldr in zh_ex:
            add(zh_ex[cldr], i, 0)
        for n in en_names(cldr, iana, en_ex, root_ex):
            add(n, i, 0)
    capital_of = {}
    for zhs, ens, zone, terr in CAPITALS:
        z = alias_of.get(zone)
        if z is None:
            sys.exit("cldr_zones: %s is not a CLDR zone" % zone)
        for n in zhs.split():
            add(n, z, 0)
        for n in (ens.split("|") if "|" in ens else ens.split()):
            add(n, z, 0)
        if terr:
            capital_of.setdefault(terr, z)
    skipped = []
    for terr in sorted(zh_terr):
        zs = by_terr.get(terr, [])
        if not zs:
            continue
        if terr in primary and primary[terr] in alias_of:
            z, multi = alias_of[primary[terr]], False
        elif len(zs) == 1:
            z, multi = zs[0], False
        elif terr in capital_of:
            z, multi = capital_of[terr], True
        else:
            skipped.append(terr)
            continue
        for n in zh_terr[terr] + en_terr.get(terr, []):
            add(n, z, 1 | (2 if multi else 0))
            add(fold(n), z, 1 | (2 if multi else 0))
    if skipped:
        print("cldr_zones: countries with several zones and no capital: %s" % " ".join(skipped),
              file=sys.stderr)

    order = sorted(places.items(), key=lambda kv: (-len(kv[0].encode()), kv[0]))
    w = sys.stdout.write
    w("/* The places the chat assistant's clock knows (chat_zones.h), generated\n"
      " * by contrib/gen/cldr_zones.py from CLDR (unicode-cldr-core): %d zones\n"
      " * with their exemplar cities in Chinese and English, %d names of\n"
      " * places in all, longest first. Do not edit: run the generator. */\n"
      % (len(ids), len(order)))
    w('#include "config.h"\n#include "wf/chat/chat_zones.h"\n\n')
    w("const struct chat_zone chat_zones[] = {\n")
    for iana, zh, en in info:
        w("\t{ %s, %s, %s },\n" % (c_str(iana), c_str(zh), c_str(en)))
    w("};\n\nconst size_t chat_nzones = sizeof chat_zones / sizeof chat_zones[0];\n\n")
    w("const struct chat_zone_place chat_zone_places[] = {\n")
    for name, (zone, flags) in order:
        w("\t{ %s, %d, %d },\n" % (c_str(name), zone, flags))
    w("};\n\nconst size_t chat_zone_nplaces = sizeof chat_zone_places / sizeof chat_zone_places[0];\n")


if __name__ == "__main__":
    main()
