//! The conversations the engine pages print, one per language: who wrote what, with the badges
//! engines show beside a name. Engines format the times and wrap the messages themselves.

/// One message of a conversation.
pub struct Message {
    /// The display name.
    pub name: &'static str,
    /// The user id engines put in profile links.
    pub user_id: u32,
    /// The user title or rank shown under the name.
    pub user_title: &'static str,
    /// The author's post count, shown as a badge.
    pub post_count: u32,
    /// The paragraphs of the message.
    pub paragraphs: &'static [&'static str],
}

impl Message {
    /// The paragraphs as `<p>` elements.
    pub fn html_paragraphs(&self) -> String {
        self.paragraphs
            .iter()
            .map(|paragraph| format!("<p>{paragraph}</p>"))
            .collect()
    }

    /// The paragraphs separated by `<br><br>`, as older engines print them.
    pub fn html_with_breaks(&self) -> String {
        self.paragraphs.join("<br>\n<br>\n")
    }

    /// The text of the message.
    pub fn text(&self) -> String {
        self.paragraphs.join(" ")
    }
}

/// A thread: its subject, its messages in order, and a signature its first author shows.
pub struct Conversation {
    pub subject: &'static str,
    pub messages: &'static [Message],
    pub signature: &'static str,
}

pub const ENGLISH: Conversation = Conversation {
    subject: "Router drops the connection every evening",
    signature: "Running OpenWrt 23.05 on three access points",
    messages: &[
        Message {
            name: "alice_w",
            user_id: 1021,
            user_title: "Senior Member",
            post_count: 1432,
            paragraphs: &[
                "Since last week my router drops the connection every evening at about eight.",
                "Only a restart brings it back. Has anyone seen this with the new firmware?",
            ],
        },
        Message {
            name: "Bob Turner",
            user_id: 2207,
            user_title: "Junior Member",
            post_count: 12,
            paragraphs: &[
                "Same here since the update. Did you try turning off the power saving mode in the wireless settings?",
            ],
        },
        Message {
            name: "carol88",
            user_id: 3150,
            user_title: "Moderator",
            post_count: 8801,
            paragraphs: &[
                "Power saving was the culprit for me too.",
                "After switching it off the connection has held for a whole week now.",
            ],
        },
        Message {
            name: "DaveK",
            user_id: 4410,
            user_title: "Member",
            post_count: 57,
            paragraphs: &[
                "Thanks, that fixed it here as well. Marking this as solved for anyone who finds it later.",
            ],
        },
        Message {
            name: "eve",
            user_id: 5012,
            user_title: "New Member",
            post_count: 3,
            paragraphs: &[
                "One more data point: the older firmware never had the problem, so a downgrade works too.",
            ],
        },
    ],
};

pub const GERMAN: Conversation = Conversation {
    subject: "Heizung macht nachts Geräusche",
    signature: "Gruß aus dem Allgäu, Brennwerttherme Baujahr 2012",
    messages: &[
        Message {
            name: "Heizungsbauer",
            user_id: 77,
            user_title: "Erfahrener Benutzer",
            post_count: 2310,
            paragraphs: &[
                "Seit dem Winter klopft unsere Heizung nachts, vor allem gegen drei Uhr morgens.",
                "Der Druck liegt bei 1,5 bar und die Anlage wurde im Herbst gewartet.",
            ],
        },
        Message {
            name: "maria_s",
            user_id: 812,
            user_title: "Neuer Benutzer",
            post_count: 4,
            paragraphs: &[
                "Das klingt nach Luft im System. Hast du die Heizkörper schon einmal entlüftet?",
            ],
        },
        Message {
            name: "Jens K.",
            user_id: 903,
            user_title: "Moderator",
            post_count: 15020,
            paragraphs: &[
                "Bei uns war es die Nachtabsenkung: das Klopfen kommt, wenn die Therme wieder hochfährt.",
            ],
        },
        Message {
            name: "tobi84",
            user_id: 1204,
            user_title: "Benutzer",
            post_count: 88,
            paragraphs: &[
                "Entlüften hat geholfen, danke euch allen. Jetzt ist endlich Ruhe im Haus.",
            ],
        },
    ],
};

pub const FRENCH: Conversation = Conversation {
    subject: "Vélo électrique : autonomie en hiver",
    signature: "Vélotaf quotidien depuis 2014, 18 km par jour",
    messages: &[
        Message {
            name: "Camille",
            user_id: 31,
            user_title: "Habitué",
            post_count: 640,
            paragraphs: &[
                "Depuis les premiers froids, mon vélo électrique perd presque la moitié de son autonomie.",
                "Est-ce normal ou la batterie est-elle en train de mourir ?",
            ],
        },
        Message {
            name: "jp_roux",
            user_id: 58,
            user_title: "Nouveau membre",
            post_count: 9,
            paragraphs: &[
                "C'est tout à fait normal, les batteries lithium n'aiment pas le froid. Rangez-la au chaud la nuit.",
            ],
        },
        Message {
            name: "Élodie",
            user_id: 102,
            user_title: "Modératrice",
            post_count: 4120,
            paragraphs: &[
                "Je confirme : en la chargeant à température ambiante juste avant de partir, je gagne dix kilomètres.",
            ],
        },
        Message {
            name: "marc-antoine",
            user_id: 240,
            user_title: "Membre",
            post_count: 211,
            paragraphs: &[
                "Une housse en néoprène sur la batterie aide aussi beaucoup pendant les trajets.",
            ],
        },
    ],
};

pub const SPANISH: Conversation = Conversation {
    subject: "Tomates con hojas amarillas",
    signature: "Huerto urbano en Valencia desde 2010",
    messages: &[
        Message {
            name: "Lucía",
            user_id: 14,
            user_title: "Miembro activo",
            post_count: 530,
            paragraphs: &[
                "Mis tomateras tienen las hojas de abajo amarillas desde hace dos semanas.",
                "Riego cada dos días y están en maceta grande. ¿Qué puede ser?",
            ],
        },
        Message {
            name: "pepe_garcia",
            user_id: 203,
            user_title: "Novato",
            post_count: 7,
            paragraphs: &[
                "Puede ser falta de nitrógeno. Prueba con un abono orgánico y quita las hojas afectadas.",
            ],
        },
        Message {
            name: "Andrés M.",
            user_id: 311,
            user_title: "Moderador",
            post_count: 9870,
            paragraphs: &[
                "También puede ser exceso de riego: en maceta conviene esperar a que la tierra se seque un poco.",
            ],
        },
        Message {
            name: "sol",
            user_id: 402,
            user_title: "Miembro",
            post_count: 66,
            paragraphs: &[
                "A mí me pasó lo mismo y era el riego. Ahora riego una vez por semana y van perfectas.",
            ],
        },
    ],
};

pub const RUSSIAN: Conversation = Conversation {
    subject: "Ноутбук перегревается при игре",
    signature: "ThinkPad T480, Arch Linux",
    messages: &[
        Message {
            name: "Дмитрий",
            user_id: 5,
            user_title: "Опытный пользователь",
            post_count: 3120,
            paragraphs: &[
                "После обновления драйверов ноутбук греется до девяноста градусов в любой игре.",
                "Раньше такого не было. Кто сталкивался?",
            ],
        },
        Message {
            name: "olga_k",
            user_id: 61,
            user_title: "Новичок",
            post_count: 11,
            paragraphs: &[
                "Проверьте режим питания: новые драйверы иногда включают максимальную производительность.",
            ],
        },
        Message {
            name: "Сергей П.",
            user_id: 77,
            user_title: "Модератор",
            post_count: 20400,
            paragraphs: &["И почистите систему охлаждения, за пару лет там собирается много пыли."],
        },
        Message {
            name: "vlad",
            user_id: 98,
            user_title: "Участник",
            post_count: 140,
            paragraphs: &[
                "Откатил драйвер на прошлую версию, температура снова в норме. Спасибо всем!",
            ],
        },
    ],
};

pub const CHINESE: Conversation = Conversation {
    subject: "新手求助：Python 读取大文件内存不足",
    signature: "人生苦短，我用 Python",
    messages: &[
        Message {
            name: "小王",
            user_id: 1001,
            user_title: "初级会员",
            post_count: 25,
            paragraphs: &[
                "我用 Python 读取一个八个 G 的日志文件，程序总是提示内存不足。",
                "请问有什么办法可以一行一行地处理吗？",
            ],
        },
        Message {
            name: "linux_fan",
            user_id: 1002,
            user_title: "高级会员",
            post_count: 3012,
            paragraphs: &["不要用 read() 一次读完，直接用 for 循环遍历文件对象，每次只读一行。"],
        },
        Message {
            name: "张伟",
            user_id: 1003,
            user_title: "版主",
            post_count: 9120,
            paragraphs: &[
                "如果需要统计，可以配合生成器和 collections.Counter 使用，内存占用很小。",
            ],
        },
        Message {
            name: "码农老李",
            user_id: 1004,
            user_title: "中级会员",
            post_count: 480,
            paragraphs: &["楼上说得对，我处理过几十个 G 的文件，用这个方法完全没有问题。"],
        },
    ],
};
