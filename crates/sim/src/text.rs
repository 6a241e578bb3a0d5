//! Deterministic words: board names, user names, thread titles and post bodies, per language.
//!
//! Everything is derived on demand from the forum seed and an item number, so the history stores
//! no strings for posts or titles (which keeps the papers' 5.4M-post corpus in memory).

use crate::random::Random;

/// The language a forum is written in; it decides word lists and the date vocabulary.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Language {
    /// English.
    English,
    /// German.
    German,
    /// Simplified Chinese (served in GBK by the Discuz!-like family).
    SimplifiedChinese,
    /// Traditional Chinese (served in Big5 by the hand-made family).
    TraditionalChinese,
}

const ENGLISH_WORDS: &[&str] = &[
    "engine",
    "battery",
    "driver",
    "update",
    "screen",
    "kernel",
    "garden",
    "recipe",
    "camera",
    "network",
    "router",
    "printer",
    "guitar",
    "trail",
    "bike",
    "wheel",
    "brake",
    "sauce",
    "flour",
    "oven",
    "lens",
    "tripod",
    "firmware",
    "laptop",
    "monitor",
    "speaker",
    "cable",
    "socket",
    "plugin",
    "theme",
    "server",
    "backup",
    "password",
    "account",
    "license",
    "warranty",
    "noise",
    "fan",
    "cooler",
    "memory",
    "disk",
    "partition",
    "install",
    "boot",
    "error",
    "crash",
    "patch",
    "version",
    "setting",
    "option",
    "menu",
    "button",
    "window",
    "tab",
    "profile",
    "forum",
    "question",
    "answer",
    "problem",
    "solution",
    "idea",
    "plan",
    "trip",
    "route",
    "map",
    "ticket",
    "price",
    "shop",
    "order",
    "delivery",
    "review",
    "test",
    "result",
    "score",
    "match",
    "team",
    "season",
    "league",
    "coach",
    "player",
    "goal",
    "weather",
    "rain",
    "winter",
    "summer",
    "soil",
    "seed",
    "tomato",
    "pepper",
    "coffee",
    "tea",
    "milk",
    "bread",
    "cheese",
    "paint",
    "brush",
    "wall",
    "floor",
    "roof",
    "door",
    "lock",
    "key",
    "phone",
    "app",
    "signal",
    "antenna",
];
const ENGLISH_GLUE: &[&str] = &[
    "the", "a", "my", "your", "this", "that", "with", "without", "after", "before", "and", "but",
    "so", "because", "when", "if", "still", "really", "maybe", "just", "again", "never", "always",
    "works", "fails", "breaks", "stops", "starts", "needs", "gets", "makes", "seems", "looks",
    "is", "was", "will", "can", "should", "might", "did", "does", "new", "old", "same", "other",
    "slow", "fast", "loud", "quiet", "cheap", "broken", "fine", "good", "bad", "odd",
];
const GERMAN_WORDS: &[&str] = &[
    "Motor",
    "Akku",
    "Treiber",
    "Bildschirm",
    "Garten",
    "Rezept",
    "Kamera",
    "Netzwerk",
    "Drucker",
    "Gitarre",
    "Fahrrad",
    "Bremse",
    "Ofen",
    "Objektiv",
    "Laptop",
    "Lautsprecher",
    "Kabel",
    "Steckdose",
    "Server",
    "Sicherung",
    "Passwort",
    "Konto",
    "Lizenz",
    "Garantie",
    "Lüfter",
    "Speicher",
    "Festplatte",
    "Fehler",
    "Absturz",
    "Version",
    "Einstellung",
    "Menü",
    "Fenster",
    "Frage",
    "Antwort",
    "Problem",
    "Lösung",
    "Idee",
    "Reise",
    "Karte",
    "Preis",
    "Bestellung",
    "Lieferung",
    "Bewertung",
    "Ergebnis",
    "Spiel",
    "Mannschaft",
    "Wetter",
    "Regen",
    "Sommer",
    "Tomate",
    "Kaffee",
    "Brot",
    "Käse",
    "Farbe",
    "Wand",
    "Schlüssel",
    "Handy",
    "Empfang",
];
const GERMAN_GLUE: &[&str] = &[
    "der",
    "die",
    "das",
    "ein",
    "mein",
    "dein",
    "mit",
    "ohne",
    "nach",
    "vor",
    "und",
    "aber",
    "weil",
    "wenn",
    "noch",
    "wirklich",
    "vielleicht",
    "nur",
    "wieder",
    "nie",
    "immer",
    "geht",
    "funktioniert",
    "bricht",
    "startet",
    "braucht",
    "macht",
    "scheint",
    "ist",
    "war",
    "wird",
    "kann",
    "sollte",
    "neu",
    "alt",
    "gleich",
    "langsam",
    "schnell",
    "laut",
    "leise",
    "billig",
    "kaputt",
    "gut",
    "schlecht",
    "seltsam",
    "über",
    "für",
    "schön",
];
const SIMPLIFIED_WORDS: &[&str] = &[
    "电脑",
    "手机",
    "系统",
    "问题",
    "软件",
    "硬件",
    "网络",
    "游戏",
    "电影",
    "音乐",
    "照片",
    "相机",
    "汽车",
    "旅游",
    "美食",
    "学习",
    "工作",
    "生活",
    "朋友",
    "时间",
    "价格",
    "质量",
    "服务",
    "安装",
    "下载",
    "升级",
    "设置",
    "显卡",
    "内存",
    "硬盘",
    "屏幕",
    "电池",
    "充电",
    "键盘",
    "鼠标",
    "路由器",
    "天气",
    "城市",
    "房子",
    "孩子",
    "学校",
    "考试",
    "老师",
    "医院",
    "医生",
    "健康",
    "运动",
    "足球",
];
const SIMPLIFIED_GLUE: &[&str] = &[
    "我的",
    "你们",
    "这个",
    "那个",
    "已经",
    "还是",
    "可以",
    "不能",
    "应该",
    "觉得",
    "知道",
    "怎么",
    "为什么",
    "因为",
    "所以",
    "但是",
    "如果",
    "非常",
    "比较",
    "真的",
    "一直",
    "突然",
    "有点",
    "好像",
    "没有",
    "需要",
    "希望",
    "请问",
    "谢谢",
    "大家",
];
const TRADITIONAL_WORDS: &[&str] = &[
    "電腦",
    "手機",
    "系統",
    "問題",
    "軟體",
    "硬體",
    "網路",
    "遊戲",
    "電影",
    "音樂",
    "照片",
    "相機",
    "汽車",
    "旅遊",
    "美食",
    "學習",
    "工作",
    "生活",
    "朋友",
    "時間",
    "價格",
    "品質",
    "服務",
    "安裝",
    "下載",
    "升級",
    "設定",
    "顯示卡",
    "記憶體",
    "硬碟",
    "螢幕",
    "電池",
    "充電",
    "鍵盤",
    "滑鼠",
    "天氣",
    "城市",
    "房子",
    "孩子",
    "學校",
    "考試",
    "老師",
    "醫院",
    "醫生",
    "健康",
    "運動",
    "足球",
];
const TRADITIONAL_GLUE: &[&str] = &[
    "我的",
    "你們",
    "這個",
    "那個",
    "已經",
    "還是",
    "可以",
    "不能",
    "應該",
    "覺得",
    "知道",
    "怎麼",
    "為什麼",
    "因為",
    "所以",
    "但是",
    "如果",
    "非常",
    "比較",
    "真的",
    "一直",
    "突然",
    "有點",
    "好像",
    "沒有",
    "需要",
    "希望",
    "請問",
    "謝謝",
    "大家",
];

const BOARD_TOPICS_ENGLISH: &[&str] = &[
    "General Discussion",
    "Announcements",
    "Hardware",
    "Software",
    "Networking",
    "Gaming",
    "Photography",
    "Cooking",
    "Gardening",
    "Cycling",
    "Travel",
    "Music",
    "Cars",
    "Sports",
    "Off Topic",
    "Help Desk",
    "Marketplace",
    "Introductions",
    "Feedback",
    "Tutorials",
    "Linux",
    "Windows",
    "Mobile",
    "Audio",
    "Home Improvement",
    "Books",
    "Movies",
    "Science",
    "Programming",
    "Security",
    "Pets",
    "Fitness",
];
const BOARD_TOPICS_GERMAN: &[&str] = &[
    "Allgemeines",
    "Ankündigungen",
    "Hardware",
    "Software",
    "Netzwerk",
    "Spiele",
    "Fotografie",
    "Kochen",
    "Garten",
    "Radsport",
    "Reisen",
    "Musik",
    "Autos",
    "Sport",
    "Plauderecke",
    "Hilfe",
    "Marktplatz",
    "Vorstellungen",
    "Rückmeldungen",
    "Anleitungen",
    "Linux",
    "Windows",
    "Mobil",
    "Heimwerken",
    "Bücher",
    "Filme",
    "Wissenschaft",
    "Programmierung",
    "Sicherheit",
    "Haustiere",
];
const BOARD_TOPICS_SIMPLIFIED: &[&str] = &[
    "综合讨论",
    "站务公告",
    "硬件交流",
    "软件交流",
    "网络技术",
    "游戏天地",
    "摄影器材",
    "美食分享",
    "园艺种植",
    "单车骑行",
    "旅游攻略",
    "音乐欣赏",
    "汽车论坛",
    "体育运动",
    "灌水专区",
    "求助问答",
    "二手市场",
    "新人报到",
    "意见反馈",
    "教程分享",
    "手机数码",
    "影视娱乐",
    "读书心得",
    "编程开发",
    "安全防护",
    "宠物之家",
    "健身运动",
    "房产家居",
    "职场人生",
    "学习考试",
];
const BOARD_TOPICS_TRADITIONAL: &[&str] = &[
    "綜合討論",
    "站務公告",
    "硬體交流",
    "軟體交流",
    "網路技術",
    "遊戲天地",
    "攝影器材",
    "美食分享",
    "園藝種植",
    "單車騎行",
    "旅遊攻略",
    "音樂欣賞",
    "汽車論壇",
    "體育運動",
    "灌水專區",
    "求助問答",
    "二手市場",
    "新人報到",
    "意見反饋",
    "教學分享",
    "手機數位",
    "影視娛樂",
    "讀書心得",
    "程式開發",
    "安全防護",
    "寵物之家",
    "健身運動",
    "房產家居",
    "職場人生",
    "學習考試",
];

const NAME_SYLLABLES: &[&str] = &[
    "ka", "ro", "mi", "ta", "len", "dor", "vi", "sa", "nik", "el", "jo", "mar", "tin", "ba", "zu",
    "fe", "lix", "an", "na", "ko", "rey", "pet", "ra", "gus", "wen", "di", "ol", "ivy", "max",
    "sky", "fox", "owl", "red", "ash", "oak", "bee",
];

impl Language {
    fn words(self) -> (&'static [&'static str], &'static [&'static str]) {
        match self {
            Language::English => (ENGLISH_WORDS, ENGLISH_GLUE),
            Language::German => (GERMAN_WORDS, GERMAN_GLUE),
            Language::SimplifiedChinese => (SIMPLIFIED_WORDS, SIMPLIFIED_GLUE),
            Language::TraditionalChinese => (TRADITIONAL_WORDS, TRADITIONAL_GLUE),
        }
    }

    fn is_chinese(self) -> bool {
        matches!(
            self,
            Language::SimplifiedChinese | Language::TraditionalChinese
        )
    }

    /// Board topics to name boards from.
    pub(crate) fn board_topics(self) -> &'static [&'static str] {
        match self {
            Language::English => BOARD_TOPICS_ENGLISH,
            Language::German => BOARD_TOPICS_GERMAN,
            Language::SimplifiedChinese => BOARD_TOPICS_SIMPLIFIED,
            Language::TraditionalChinese => BOARD_TOPICS_TRADITIONAL,
        }
    }
}

fn sentence(random: &mut Random, language: Language, words: usize) -> String {
    let mut text = String::new();
    push_sentence(&mut text, random, language, words);
    text
}

/// Appends a sentence of `words` words to `text`, drawing from `random` in the same order
/// whatever the caller builds around it. Written into the caller's string rather than joined
/// from a list of words: post bodies are generated on every in-process answer, and the list,
/// the joined copy and the capitalised copy were most of that cost.
fn push_sentence(text: &mut String, random: &mut Random, language: Language, words: usize) {
    let (nouns, glue) = language.words();
    let chinese = language.is_chinese();
    for index in 0..words {
        let pool = if index % 2 == 0 { glue } else { nouns };
        let word = *random.pick(pool);
        if index == 0 && !chinese {
            let mut characters = word.chars();
            if let Some(first) = characters.next() {
                text.extend(first.to_uppercase());
                text.push_str(characters.as_str());
            }
            continue;
        }
        if !chinese {
            text.push(' ');
        }
        text.push_str(word);
    }
    if chinese {
        text.push(if random.chance(0.2) { '？' } else { '。' });
    } else {
        text.push(if random.chance(0.2) { '?' } else { '.' });
    }
}

/// A thread title.
pub(crate) fn title(seed: u64, language: Language, thread: u32) -> String {
    let mut random = Random::for_item(seed, "title", u64::from(thread));
    let words = random.between(3, 7) as usize;
    let mut text = sentence(&mut random, language, words);
    text.pop();
    text
}

/// The paragraphs of a post body. The ground truth's `text` is these joined by newlines.
pub(crate) fn post_paragraphs(seed: u64, language: Language, post: u32) -> Vec<String> {
    let mut random = Random::for_item(seed, "post-text", u64::from(post));
    let paragraphs = if random.chance(0.6) {
        1
    } else {
        random.between(2, 4) as usize
    };
    let joiner = if language.is_chinese() { "" } else { " " };
    (0..paragraphs)
        .map(|_| {
            let sentences = random.between(1, 3) as usize;
            let mut paragraph = String::new();
            for index in 0..sentences {
                if index > 0 {
                    paragraph.push_str(joiner);
                }
                let words = random.between(4, 14) as usize;
                push_sentence(&mut paragraph, &mut random, language, words);
            }
            paragraph
        })
        .collect()
}

/// The one sentence of a comment under a post on a question-and-answer site.
pub(crate) fn comment_text(seed: u64, language: Language, comment: u64) -> String {
    let mut random = Random::for_item(seed, "comment-text", comment);
    let words = random.between(5, 16) as usize;
    sentence(&mut random, language, words)
}

/// A user's display name; unique within a forum because the user number is folded in when the
/// syllables collide.
pub(crate) fn user_name(seed: u64, user: u32) -> String {
    let mut random = Random::for_item(seed, "user-name", u64::from(user));
    let syllables = random.between(2, 3) as usize;
    let mut name: String = (0..syllables)
        .map(|_| *random.pick(NAME_SYLLABLES))
        .collect();
    if let Some(first) = name.chars().next() {
        let upper: String = first.to_uppercase().collect();
        name.replace_range(..first.len_utf8(), &upper);
    }
    // Numbers after names are common on forums and make every name unique.
    name.push_str(&user.to_string());
    name
}

/// A user's signature line; `None` for users without one.
pub(crate) fn signature(seed: u64, language: Language, user: u32) -> Option<String> {
    let mut random = Random::for_item(seed, "signature", u64::from(user));
    if random.chance(0.45) {
        return None;
    }
    let words = random.between(3, 8) as usize;
    Some(sentence(&mut random, language, words))
}

/// Advertisement slogans; which one a page shows varies from page to page.
pub(crate) fn advertisement(language: Language, choice: u64) -> &'static str {
    const ENGLISH: &[&str] = &[
        "Cheap flights to 300 cities - book now",
        "Upgrade your router today: 40% off",
        "Learn a language in 10 minutes a day",
        "Hosting from $1.99/month, free domain",
        "The best coffee beans, delivered weekly",
        "Insure your bike against theft",
    ];
    const GERMAN: &[&str] = &[
        "Günstige Flüge in 300 Städte",
        "Router-Angebot: 40% Rabatt",
        "Sprachen lernen in 10 Minuten am Tag",
        "Webhosting ab 1,99 €/Monat",
    ];
    const SIMPLIFIED: &[&str] = &[
        "特价机票，立即预订",
        "路由器限时八折",
        "每天十分钟学外语",
        "虚拟主机每月九元",
    ];
    const TRADITIONAL: &[&str] = &[
        "特價機票，立即預訂",
        "路由器限時八折",
        "每天十分鐘學外語",
        "虛擬主機每月九元",
    ];
    let pool = match language {
        Language::English => ENGLISH,
        Language::German => GERMAN,
        Language::SimplifiedChinese => SIMPLIFIED,
        Language::TraditionalChinese => TRADITIONAL,
    };
    pool[(choice % pool.len() as u64) as usize]
}

/// Turns a title into a URL slug: lower-case ASCII words joined by hyphens; titles with no ASCII
/// letters (Chinese) give "topic".
pub fn slugify(title: &str) -> String {
    let mut slug = String::new();
    for character in title.chars() {
        if character.is_ascii_alphanumeric() {
            slug.push(character.to_ascii_lowercase());
        } else if !slug.is_empty() && !slug.ends_with('-') {
            slug.push('-');
        }
    }
    while slug.ends_with('-') {
        slug.pop();
    }
    if slug.is_empty() {
        "topic".to_string()
    } else {
        slug
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_deterministic_per_item() {
        assert_eq!(
            title(5, Language::English, 9),
            title(5, Language::English, 9)
        );
        assert_ne!(
            title(5, Language::English, 9),
            title(5, Language::English, 10)
        );
        let body = post_paragraphs(5, Language::SimplifiedChinese, 3);
        assert!(!body.is_empty() && body.iter().all(|p| !p.is_empty()));
    }

    #[test]
    fn slugs_are_plain() {
        assert_eq!(slugify("How to fix it?"), "how-to-fix-it");
        assert_eq!(slugify("Über das Fahrrad"), "ber-das-fahrrad");
        assert_eq!(slugify("电脑问题"), "topic");
    }
}
