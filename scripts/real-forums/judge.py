#!/usr/bin/env python3
"""Judges a trawl crawl of a real forum engine against the engine's own database.

usage: judge.py ENGINE ENGINE_DB PAGES_JSONL THREADS_JSONL [--json OUT]

ENGINE is flaskbb, machina, spirit, lbforum, simpleforum or mhonarc (whose ENGINE_DB is the
archive's data folder: its mbox files and the pages built from them). PAGES_JSONL and
THREADS_JSONL are `trawl export --db DB pages` and `... threads`. Standard library only, so it
runs with any Python >= 3.11.

Valuable pages are every page of every board list and every page of every thread that the
engine serves to an anonymous visitor, each named by a key (kind, id, page number) that does
not depend on how its URL is spelled. A fetch is
  valuable   when its URL names a valuable key not fetched before (status 200),
  duplicate  when it names a key already fetched under this or another spelling,
  optional   when it names, for the first time, a page of a list that another list makes
             unneeded (a mail archive's date index beside its thread index, a list of all
             topics beside the boards' own), on the engines where the judge names such lists,
  invalid    otherwise (navigation pages, profiles, redirects, errors, anything else).
A thread is reassembled when one exported thread holds exactly its pages, in order (for an
archive of one page per message: exactly its messages' pages, in any order). A database
post is found when an exported post of that thread (unused so far) has token F1 >= 0.8 with it,
as in the WEB-FORUM-52 scorer; author is right after case and space folding; time is right when
it equals the database time, to the minute, in the zone the site shows (to the day where the
site shows only the day); posts whose page shows no time of their own are left out of it.
"""

import datetime
import json
import math
import re
import sqlite3
import sys
from collections import Counter
from urllib.parse import parse_qs, urlsplit


def tokens(text):
    return re.findall(r"\w+", (text or "").lower())


def token_f1(gold, predicted):
    common = sum((Counter(gold) & Counter(predicted)).values())
    if not common:
        return 0.0
    precision, recall = common / len(predicted), common / len(gold)
    return 2 * precision * recall / (precision + recall)


def page_number(query, name):
    values = parse_qs(query).get(name)
    if not values:
        return 1
    try:
        return int(values[0])
    except ValueError:
        return None


class Truth:
    """What the engine's database says: boards and threads with their page counts, and posts."""

    def __init__(self):
        self.board_pages = {}  # board id -> number of list pages
        self.thread_pages = {}  # thread id -> number of pages
        self.posts = {}  # thread id -> [(author, created UTC naive, text)] in thread order
        self.shown_zone = datetime.UTC
        self.post_page = {}  # post id -> (thread id, page) for engines that link posts by id
        self.posts_per_page = 10
        # Whether the site shows post times to the minute or only the day ("28 Dec '24").
        self.time_to_the_day = False

        # Posts (thread id, position) whose page shows no time at all: their time is not judged.
        self.untimed = set()
        # Pages that list the same threads another way (a mail archive's date index beside its
        # thread index): neither needed for coverage nor invalid when fetched once.
        self.optional_keys = set()
        # One page per message (mail archives): a thread's pages are its messages, joined in any
        # order; elsewhere a thread's pages are its pages in order.
        self.thread_pages_unordered = False
        self.message_thread = {}  # key of a message page -> thread id, for one page per message
        self.message_key = {}  # (thread id, position) -> key of its message page
        self.post_page_override = {}  # (thread id, position) -> key, where pages are not even

    def valuable_keys(self):
        keys = set()
        for board, count in self.board_pages.items():
            keys.update(("board", board, page) for page in range(1, count + 1))
        for thread, count in self.thread_pages.items():
            keys.update(("thread", thread, page) for page in range(1, count + 1))
        keys.update(self.message_thread)
        return keys

    def thread_of_key(self, key):
        if not key:
            return None
        if key[0] == "thread":
            return key[1]
        return self.message_thread.get(key)

    def expected_thread_keys(self, thread_id):
        if self.thread_pages_unordered:
            return [self.message_key[(thread_id, position)]
                    for position in range(len(self.posts[thread_id]))]
        return [("thread", thread_id, page)
                for page in range(1, self.thread_pages.get(thread_id, 0) + 1)]

    def key_of_post(self, thread_id, position):
        """The page that shows the post at `position` of a thread."""
        if (thread_id, position) in self.message_key:
            return self.message_key[(thread_id, position)]
        if (thread_id, position) in self.post_page_override:
            return self.post_page_override[(thread_id, position)]
        return ("thread", thread_id, position // self.posts_per_page + 1)


def flaskbb_truth(db_path):
    truth = Truth()
    connection = sqlite3.connect(db_path)
    settings = dict(connection.execute(
        "select key, value from settings where key in ('posts_per_page', 'topics_per_page')"))
    # FlaskBB stores setting values pickled; the defaults are 10 and 10.
    posts_per_page = 10 if "posts_per_page" not in settings else _unpickle_int(
        settings["posts_per_page"], 10)
    topics_per_page = 10 if "topics_per_page" not in settings else _unpickle_int(
        settings["topics_per_page"], 10)
    for forum_id, topic_count in connection.execute(
            "select id, (select count(*) from topics t where t.forum_id = f.id and not t.hidden)"
            " from forums f"):
        truth.board_pages[forum_id] = max(1, math.ceil(topic_count / topics_per_page))
    for topic_id, in connection.execute("select id from topics where not hidden"):
        truth.posts[topic_id] = []
    for topic_id, username, created, content in connection.execute(
            "select topic_id, username, date_created, content from posts where not hidden"
            " order by topic_id, id"):
        if topic_id in truth.posts:
            truth.posts[topic_id].append((username, _parse_db_time(created), content))
    for topic_id, posts in truth.posts.items():
        truth.thread_pages[topic_id] = max(1, math.ceil(len(posts) / posts_per_page))
    truth.posts_per_page = posts_per_page
    return truth


def _unpickle_int(value, default):
    import pickle
    try:
        return int(pickle.loads(value))
    except Exception:  # a setting stored in a form we do not know keeps the engine default
        return default


def _parse_db_time(value):
    moment = datetime.datetime.fromisoformat(str(value).replace(" ", "T"))
    if moment.tzinfo is not None:
        moment = moment.astimezone(datetime.UTC).replace(tzinfo=None)
    return moment


def flaskbb_key(url, _truth):
    parts = urlsplit(url)
    match = re.fullmatch(r"/(forum|topic)/(\d+)(?:-[^/]*)?/?", parts.path)
    if not match:
        return None
    page = page_number(parts.query, "page")
    if page is None:
        return None
    kind = "board" if match.group(1) == "forum" else "thread"
    return (kind, int(match.group(2)), page)


def machina_truth(db_path):
    truth = Truth()
    connection = sqlite3.connect(db_path)
    topics_per_page, posts_per_page = 20, 15  # machina's defaults, unchanged by the site
    for forum_id, topic_count in connection.execute(
            "select f.id, (select count(*) from forum_conversation_topic t"
            " where t.forum_id = f.id and t.approved) from forum_forum f where f.type = 0"):
        truth.board_pages[forum_id] = max(1, math.ceil(topic_count / topics_per_page))
    for topic_id, in connection.execute(
            "select id from forum_conversation_topic where approved"):
        truth.posts[topic_id] = []
    for post_id, topic_id, username, created, content in connection.execute(
            "select p.id, p.topic_id, u.username, p.created, p.content"
            " from forum_conversation_post p join auth_user u on u.id = p.poster_id"
            " where p.approved order by p.topic_id, p.created, p.id"):
        if topic_id in truth.posts:
            position = len(truth.posts[topic_id])
            truth.post_page[post_id] = (topic_id, position // posts_per_page + 1)
            truth.posts[topic_id].append((username, _parse_db_time(created), content))
    for topic_id, posts in truth.posts.items():
        truth.thread_pages[topic_id] = max(1, math.ceil(len(posts) / posts_per_page))
    truth.posts_per_page = posts_per_page
    return truth


def machina_key(url, truth):
    parts = urlsplit(url)
    topic = re.fullmatch(r"/forum/[^/]+-(\d+)/topic/[^/]+-(\d+)/?", parts.path)
    if topic:
        # `?post=N` shows the page that holds post N, whatever `page` says.
        post = parse_qs(parts.query).get("post")
        if post and post[0].isdigit() and int(post[0]) in truth.post_page:
            thread, page = truth.post_page[int(post[0])]
            if thread == int(topic.group(2)):
                return ("thread", thread, page)
        page = page_number(parts.query, "page")
        return None if page is None else ("thread", int(topic.group(2)), page)
    board = re.fullmatch(r"/forum/[^/]+-(\d+)/?", parts.path)
    if board:
        page = page_number(parts.query, "page")
        return None if page is None else ("board", int(board.group(1)), page)
    return None


def spirit_truth(db_path):
    truth = Truth()
    connection = sqlite3.connect(db_path)
    topics_per_page = posts_per_page = 20  # Spirit's defaults (djconfig), unchanged by the site
    categories = list(connection.execute(
        "select id, parent_id from spirit_category_category"
        " where not is_private and not is_removed"))
    for category_id, parent_id in categories:
        # A top-level category lists its sub-categories' topics too.
        if parent_id is None:
            condition = "(c.id = ? or c.parent_id = ?)"
            parameters = (category_id, category_id)
        else:
            condition = "c.id = ?"
            parameters = (category_id,)
        topic_count, = connection.execute(
            "select count(*) from spirit_topic_topic t join spirit_category_category c"
            f" on c.id = t.category_id where not t.is_removed and {condition}",
            parameters).fetchone()
        truth.board_pages[category_id] = max(1, math.ceil(topic_count / topics_per_page))
    for topic_id, in connection.execute(
            "select t.id from spirit_topic_topic t join spirit_category_category c"
            " on c.id = t.category_id where not t.is_removed and not c.is_private"):
        truth.posts[topic_id] = []
    for topic_id, username, created, content in connection.execute(
            "select c.topic_id, u.username, c.date, c.comment from spirit_comment_comment c"
            " join auth_user u on u.id = c.user_id where not c.is_removed"
            " order by c.topic_id, c.date, c.id"):
        if topic_id in truth.posts:
            truth.posts[topic_id].append((username, _parse_db_time(created), content))
    for topic_id, posts in truth.posts.items():
        truth.thread_pages[topic_id] = max(1, math.ceil(len(posts) / posts_per_page))
    truth.posts_per_page = posts_per_page
    # Spirit prints "28 Dec '24" and keeps the minute only in a title attribute.
    truth.time_to_the_day = True
    return truth


def spirit_key(url, _truth):
    parts = urlsplit(url)
    match = re.fullmatch(r"/(category|topic)/(\d+)/[^/]+/?", parts.path)
    if not match:
        return None
    page = page_number(parts.query, "page")
    if page is None:
        return None
    kind = "board" if match.group(1) == "category" else "thread"
    return (kind, int(match.group(2)), page)


def lbforum_truth(db_path):
    """LBForum shows a topic's first post above the replies on every page of the topic and pages
    only the replies (django-el-pagination's default, 10 a page; 10 topics a forum page)."""
    truth = Truth()
    connection = sqlite3.connect(db_path)
    topics_per_page = replies_per_page = 10
    for forum_id, topic_count in connection.execute(
            "select f.slug, (select count(*) from lbforum_topic t where t.forum_id = f.id"
            " and not t.hidden) from lbforum_forum f"):
        truth.board_pages[forum_id] = max(1, math.ceil(topic_count / topics_per_page))
    for topic_id, in connection.execute("select id from lbforum_topic where not hidden"):
        truth.posts[topic_id] = []
    for topic_id, name, username, created, message in connection.execute(
            "select p.topic_id, pr.nickname, u.username, p.created_on, p.message"
            " from lbforum_post p join auth_user u on u.id = p.posted_by_id"
            " left join lbforum_lbforumuserprofile pr on pr.user_id = u.id"
            " order by p.topic_id, p.topic_post desc, p.created_on, p.id"):
        if topic_id in truth.posts:
            truth.posts[topic_id].append((name or username, _parse_db_time(created), message))
    for topic_id, posts in truth.posts.items():
        replies = len(posts) - 1
        truth.thread_pages[topic_id] = max(1, math.ceil(replies / replies_per_page))
        for position in range(len(posts)):
            page = 1 if position == 0 else (position - 1) // replies_per_page + 1
            truth.post_page_override[(topic_id, position)] = ("thread", topic_id, page)
        # The first post's head reads "By NAME at TIME" where TIME is the topic's last post's:
        # the page shows no time of the first post itself.
        truth.untimed.add((topic_id, 0))
    return truth


def lbforum_key(url, _truth):
    parts = urlsplit(url)
    match = re.fullmatch(r"/(forum|topic)/([\w-]+)/", parts.path)
    if not match or (match.group(1) == "topic" and not match.group(2).isdigit()):
        return None
    if set(parse_qs(parts.query)) - {"page"}:
        return None  # another order of the same list (`?order_by=`)
    page = page_number(parts.query, "page")
    if page is None:
        return None
    if match.group(1) == "forum":
        return ("board", match.group(2), page)
    return ("thread", int(match.group(2)), page)


def simpleforum_truth(db_path):
    """django-simple-forum: a thread is one page (the topic's description, then its comments,
    which show no time); categories list 20 topics a page, and so does the home page, a list of
    all topics beside the categories' own (an optional list here)."""
    truth = Truth()
    connection = sqlite3.connect(db_path)
    per_page = 20
    for slug, topic_count in connection.execute(
            "select c.slug, (select count(*) from django_simple_forum_topic t"
            " where t.category_id = c.id and t.status = 'Published')"
            " from django_simple_forum_forumcategory c where c.is_active"):
        truth.board_pages[slug] = max(1, math.ceil(topic_count / per_page))
    published, = connection.execute(
        "select count(*) from django_simple_forum_topic where status = 'Published'").fetchone()
    truth.optional_keys.update(
        ("list", "all", page) for page in range(1, max(1, math.ceil(published / per_page)) + 1))
    for slug, username, created, description in connection.execute(
            "select t.slug, u.username, t.created_on, t.description"
            " from django_simple_forum_topic t join auth_user u on u.id = t.created_by_id"
            " where t.status = 'Published'"):
        truth.posts[slug] = [(username, _parse_db_time(created), description)]
        truth.thread_pages[slug] = 1
    for slug, username, created, comment in connection.execute(
            "select t.slug, u.username, c.created_on, c.comment"
            " from django_simple_forum_comment c join django_simple_forum_topic t"
            " on t.id = c.topic_id join auth_user u on u.id = c.commented_by_id"
            " order by c.topic_id, c.id"):
        if slug in truth.posts:
            truth.untimed.add((slug, len(truth.posts[slug])))
            truth.posts[slug].append((username, _parse_db_time(created), comment))
    truth.posts_per_page = 10 ** 6  # one page a thread
    return truth


def simpleforum_key(url, _truth):
    parts = urlsplit(url)
    page = page_number(parts.query, "page")
    if page is None:
        return None
    if parts.path == "/":
        return ("list", "all", page)
    match = re.fullmatch(r"/category/([-\w]+)/", parts.path)
    if match:
        return ("board", match.group(1), page)
    match = re.fullmatch(r"/topic/view/([-\w]+)/", parts.path)
    if match:
        return ("thread", match.group(1), 1) if page == 1 else None
    return None


def mhonarc_truth(data_dir):
    """A MHonArc archive (mhonarc_site.py): the lists' mbox files are the messages, and the
    archive's own message pages say which page shows which Message-ID."""
    import email
    import email.policy
    import email.utils
    import os
    truth = Truth()
    truth.thread_pages_unordered = True
    archives = os.path.join(data_dir, "www", "archives")
    separator = re.compile(r"^From \S+@example\.invalid .*\n", re.MULTILINE)
    for slug in sorted(os.listdir(archives)):
        list_dir = os.path.join(archives, slug)
        if not os.path.isdir(list_dir):
            continue
        names = os.listdir(list_dir)
        truth.board_pages[slug] = 1 + sum(1 for name in names if re.fullmatch(r"thrd\d+\.html", name))
        date_pages = 1 + sum(1 for name in names if re.fullmatch(r"mail\d+\.html", name))
        truth.optional_keys.update(("date", slug, page) for page in range(1, date_pages + 1))
        page_of_id = {}
        for name in names:
            match = re.fullmatch(r"msg(\d+)\.html", name)
            if not match:
                continue
            with open(os.path.join(list_dir, name), encoding="utf-8", errors="replace") as page:
                head = page.read(2000)
            message_id = re.search(r"<!--X-Message-Id: (.*?) -->", head).group(1)
            page_of_id[html_unescape(message_id)] = ("message", slug, int(match.group(1)))
        with open(os.path.join(data_dir, "mbox", slug + ".mbox"), encoding="utf-8") as mbox:
            raw_messages = separator.split(mbox.read())
        messages = []
        for raw in raw_messages:
            if not raw.strip():
                continue
            message = email.message_from_string(raw, policy=email.policy.default)
            message_id = message["Message-ID"].strip().strip("<>")
            references = (message["References"] or "").split()
            root = references[0].strip("<>") if references else message_id
            name, _address = email.utils.parseaddr(str(message["From"]))
            created = email.utils.parsedate_to_datetime(message["Date"])
            created = created.astimezone(datetime.UTC).replace(tzinfo=None)
            body = message.get_content().strip()
            messages.append((created, root, message_id, name, body))
        for created, root, message_id, name, body in sorted(messages, key=lambda m: m[0]):
            posts = truth.posts.setdefault(root, [])
            key = page_of_id[message_id]
            truth.message_key[(root, len(posts))] = key
            truth.message_thread[key] = root
            posts.append((name, created, body))
    return truth


def html_unescape(text):
    import html
    return html.unescape(text)


def mhonarc_key(url, _truth):
    parts = urlsplit(url)
    match = re.fullmatch(r"/archives/([^/]+)/(msg|thrd|mail)(\d*)\.html", parts.path)
    if match:
        kind, number = match.group(2), match.group(3)
        if kind == "msg":
            return ("message", match.group(1), int(number)) if number else None
        return ("board" if kind == "thrd" else "date", match.group(1), int(number or 1))
    match = re.fullmatch(r"/archives/([^/]+)/(threads|maillist)\.html", parts.path)
    if match:
        return ("board" if match.group(2) == "threads" else "date", match.group(1), 1)
    return None


ENGINES = {
    "flaskbb": (flaskbb_truth, flaskbb_key),
    "machina": (machina_truth, machina_key),
    "spirit": (spirit_truth, spirit_key),
    "lbforum": (lbforum_truth, lbforum_key),
    "simpleforum": (simpleforum_truth, simpleforum_key),
    "mhonarc": (mhonarc_truth, mhonarc_key),
}


def parse_trawl_time(value, zone):
    if not value:
        return None
    try:
        moment = datetime.datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=zone)
    return moment.astimezone(datetime.UTC).replace(tzinfo=None, second=0, microsecond=0)


def judge(engine, db_path, pages_path, threads_path):
    truth_of, key_of = ENGINES[engine]
    truth = truth_of(db_path)
    valuable = truth.valuable_keys()
    fetches = [json.loads(line) for line in open(pages_path) if line.strip()]
    threads = [json.loads(line) for line in open(threads_path) if line.strip()]

    fetched_keys = set()
    optional_fetched = set()
    counts = Counter()
    invalid_kinds = Counter()
    for fetch in fetches:
        key = key_of(fetch["url"], truth) if fetch.get("status") == 200 else None
        if key in truth.optional_keys:
            if key in optional_fetched:
                counts["duplicate"] += 1
            else:
                counts["optional"] += 1
                optional_fetched.add(key)
            continue
        if key in valuable:
            if key in fetched_keys:
                counts["duplicate"] += 1
            else:
                counts["valuable"] += 1
                fetched_keys.add(key)
            continue
        counts["invalid"] += 1
        status = fetch.get("status")
        if status != 200:
            invalid_kinds[f"status {status}"] += 1
        else:
            path = urlsplit(fetch["url"]).path
            invalid_kinds["/" + path.strip("/").split("/")[0] if path.strip("/") else "/"] += 1

    # Threads: the export's thread objects, each mapped to the keys of its pages.
    # A thread counts once however many exported threads hold it whole (a crawl that fetched
    # its pages under two spellings exports it twice).
    reassembled = set()
    posts_by_thread = {}
    for thread in threads:
        keys = [key_of(url, truth) for url in thread["pages"]]
        ids = {truth.thread_of_key(key) for key in keys} - {None}
        for thread_id in ids:
            posts_by_thread.setdefault(thread_id, []).extend(thread["posts"])
        if len(ids) == 1:
            thread_id = next(iter(ids))
            expected = truth.expected_thread_keys(thread_id)
            if truth.thread_pages_unordered:
                whole = len(keys) == len(expected) and set(keys) == set(expected)
            else:
                whole = keys == expected
            if whole:
                reassembled.add(thread_id)

    # Posts on the thread pages the crawl fetched: what extraction could have found at best,
    # which separates what the crawl missed from what page analysis missed.
    gold_posts = found = author_ok = time_ok = timed_found = on_fetched = found_on_fetched = 0
    extracted = sum(len(thread["posts"]) for thread in threads)
    for thread_id, posts in truth.posts.items():
        candidates = posts_by_thread.get(thread_id, [])
        used = set()
        for position, (author, created, text) in enumerate(posts):
            gold_posts += 1
            fetched = truth.key_of_post(thread_id, position) in fetched_keys
            on_fetched += fetched
            gold_tokens = tokens(text)
            best, best_index = 0.0, None
            for index, candidate in enumerate(candidates):
                if index in used:
                    continue
                score = token_f1(gold_tokens, tokens(candidate.get("text")))
                if score > best:
                    best, best_index = score, index
            if best_index is None or best < 0.8:
                continue
            used.add(best_index)
            found += 1
            found_on_fetched += fetched
            candidate = candidates[best_index]
            if " ".join((candidate.get("author") or "").lower().split()) == \
                    " ".join(author.lower().split()):
                author_ok += 1
            if (thread_id, position) in truth.untimed:
                continue
            timed_found += 1
            shown = parse_trawl_time(candidate.get("time"), truth.shown_zone)
            if truth.time_to_the_day:
                time_ok += shown is not None and shown.date() == created.date()
            elif shown == created.replace(second=0, microsecond=0):
                time_ok += 1

    total = max(len(fetches), 1)
    return {
        "engine": engine,
        "fetches": len(fetches),
        "valuable_pages": len(valuable),
        "valuable_fetched": len(fetched_keys),
        "coverage": len(fetched_keys) / max(len(valuable), 1),
        "valuable_share": counts["valuable"] / total,
        "optional_share": counts["optional"] / total,
        "invalid_share": counts["invalid"] / total,
        "duplicate_share": counts["duplicate"] / total,
        "invalid_kinds": dict(invalid_kinds.most_common()),
        "board_pages_fetched": sum(1 for key in fetched_keys if key[0] == "board"),
        "board_pages": sum(truth.board_pages.values()),
        "thread_pages_fetched": sum(1 for key in fetched_keys if key[0] != "board"),
        "thread_pages": sum(truth.thread_pages.values()) + len(truth.message_thread),
        "threads": len(truth.posts),
        "threads_exported": len(threads),
        "threads_reassembled": len(reassembled),
        "db_posts": gold_posts,
        "posts_extracted": extracted,
        "posts_found": found,
        "post_recall": found / max(gold_posts, 1),
        "posts_on_fetched_pages": on_fetched,
        "extraction_recall": found_on_fetched / max(on_fetched, 1),
        "post_precision": found / max(extracted, 1),
        "author_right": author_ok / max(found, 1),
        "time_right": time_ok / timed_found if timed_found else None,
        "posts_timed_found": timed_found,
    }


def table(result):
    lines = [
        f"engine {result['engine']}: {result['fetches']} fetches",
        f"  coverage of valuable pages  {result['coverage']:.3f} "
        f"({result['valuable_fetched']}/{result['valuable_pages']}; board list pages "
        f"{result['board_pages_fetched']}/{result['board_pages']}, thread pages "
        f"{result['thread_pages_fetched']}/{result['thread_pages']})",
        f"  invalid share               {result['invalid_share']:.3f} {result['invalid_kinds']}",
        f"  duplicate share             {result['duplicate_share']:.3f}",
    ]
    if result["optional_share"]:
        lines.append(f"  other lists (not needed)    {result['optional_share']:.3f}")
    if result["threads_exported"] == 0:
        # Export groups threads by the roles a plan gives pages; a crawl without a plan has
        # none, so there is nothing to judge rather than a score of zero.
        lines.append("  threads and posts           n/a: `trawl export threads` printed no thread")
        return "\n".join(lines)
    lines += [
        f"  threads reassembled         {result['threads_reassembled']}/{result['threads']} "
        f"({result['threads_exported']} exported)",
        f"  posts found (F1 >= 0.8)     {result['posts_found']}/{result['db_posts']} "
        f"recall {result['post_recall']:.3f}, precision {result['post_precision']:.3f} "
        f"of {result['posts_extracted']} extracted",
        f"  posts on fetched pages      {result['posts_on_fetched_pages']}, found there "
        f"{result['extraction_recall']:.3f}",
        f"  author right / time right   {result['author_right']:.3f} / "
        + (f"{result['time_right']:.3f} (of found posts" if result["time_right"] is not None
           else "n/a (the site shows no post's time")
        + (f"; {result['posts_found'] - result['posts_timed_found']} shown without a time)"
           if result["posts_timed_found"] < result["posts_found"] else ")"),
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    arguments = sys.argv[1:]
    json_out = None
    if "--json" in arguments:
        position = arguments.index("--json")
        json_out = arguments[position + 1]
        del arguments[position:position + 2]
    if len(arguments) != 4 or arguments[0] not in ENGINES:
        sys.exit(__doc__)
    result = judge(*arguments)
    print(table(result))
    if json_out:
        with open(json_out, "w") as out:
            json.dump(result, out, indent=1)
