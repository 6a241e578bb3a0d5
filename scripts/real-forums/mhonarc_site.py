"""MHonArc on loopback: the synthetic community as mailing-list archives, built and served.

usage: mhonarc_site.py seed DATA_DIR SEED
       mhonarc_site.py serve DATA_DIR PORT LIFETIME_SECONDS

A mailing-list archive is a forum with no server-side program: every board is a list, every
thread a chain of messages joined by Message-ID, In-Reply-To and References, and the archive is
static HTML that MHonArc (Debian's `mhonarc`) builds from mbox files, one page per message plus
paged thread and date indexes. Seeding writes one mbox per board into DATA_DIR/mbox and runs
mhonarc on each into DATA_DIR/www/archives/<list>/; the page at /archives/ listing the lists is
written here, as a list server's front page would be. Serving is the standard library's static
file server on 127.0.0.1, with what real archive hosts add: `/` answers 302 to /archives/ (the
host's portal sends visitors to the archive) and a folder without an index page answers 403
rather than a listing of its files. Standard library only (plus the mhonarc program for seeding).
"""

import html
import os
import random
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from community import make_community, run_command_line, serve_for_at_most  # noqa: E402

# Every message's envelope line names this domain, so the separator below cannot match a line
# of a message body that happens to start with "From " (the prose has "From" as a first word).
DOMAIN = "example.invalid"
MESSAGE_SEPARATOR = r"^From \S+@example\.invalid "
# Messages shown on one page of a list's thread and date indexes (MHonArc's -idxsize); small
# enough that the larger lists have several index pages, as real archives of busy lists do.
INDEX_SIZE = 100


def list_slug(title):
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


def address_of(name):
    return re.sub(r"[^a-z0-9]+", ".", name.lower()).strip(".") + "@" + DOMAIN


def message_id(seed_value, thread_index, post_index):
    return f"<t{thread_index}.p{post_index}.s{seed_value}@{DOMAIN}>"


def reply_parents(seed_value, community):
    """For each thread, the post each post answers (None for the first): mostly the one just
    before, sometimes an earlier one, so the archive's thread index shows real trees. A random
    source of its own keeps the community itself identical to the other engines'."""
    rng = random.Random(seed_value * 7919 + 1)
    parents = []
    for thread in community.threads:
        chosen = [None]
        for index in range(1, len(thread.posts)):
            chosen.append(index - 1 if rng.random() < 0.7 else rng.randrange(index))
        parents.append(chosen)
    return parents


def write_mboxes(mbox_dir, seed_value, community):
    """One mbox per board, messages in the order they were sent."""
    parents = reply_parents(seed_value, community)
    os.makedirs(mbox_dir, exist_ok=True)
    messages = {index: [] for index in range(len(community.boards))}
    for thread_index, thread in enumerate(community.threads):
        for post_index, post in enumerate(thread.posts):
            messages[thread.board].append((post.created, thread_index, post_index))
    paths = []
    for board_index, (title, _description, _parent, _share) in enumerate(community.boards):
        slug = list_slug(title)
        path = os.path.join(mbox_dir, slug + ".mbox")
        with open(path, "w", encoding="utf-8", newline="\n") as out:
            for created, thread_index, post_index in sorted(messages[board_index]):
                thread = community.threads[thread_index]
                post = thread.posts[post_index]
                name = community.users[post.author]
                sender = address_of(name)
                headers = [
                    f"From: {name} <{sender}>",
                    f"To: {slug}@lists.{DOMAIN}",
                    "Subject: " + ("" if post_index == 0 else "Re: ") + thread.title,
                    "Date: " + created.strftime("%a, %d %b %Y %H:%M:%S +0000"),
                    "Message-ID: " + message_id(seed_value, thread_index, post_index),
                ]
                parent = parents[thread_index][post_index]
                if parent is not None:
                    chain = [parent]
                    while parents[thread_index][chain[-1]] is not None:
                        chain.append(parents[thread_index][chain[-1]])
                    headers.append("In-Reply-To: " + message_id(seed_value, thread_index, parent))
                    headers.append("References: " + " ".join(
                        message_id(seed_value, thread_index, ancestor)
                        for ancestor in reversed(chain)))
                headers += ["MIME-Version: 1.0", "Content-Type: text/plain; charset=utf-8",
                            "Content-Transfer-Encoding: 8bit",
                            f"List-Id: {title} <{slug}.lists.{DOMAIN}>"]
                out.write(f"From {sender} {created.strftime('%a %b %d %H:%M:%S %Y')}\n")
                out.write("\n".join(headers) + "\n\n" + post.text + "\n\n")
        paths.append((slug, title, path))
    return paths


def seed(data_dir, seed_value):
    if shutil.which("mhonarc") is None:
        sys.exit("mhonarc is not installed (Debian: apt-get install -y mhonarc)")
    data_dir = os.path.abspath(data_dir)
    for sub in ("mbox", "www"):
        shutil.rmtree(os.path.join(data_dir, sub), ignore_errors=True)
    community = make_community(seed=seed_value)
    lists = write_mboxes(os.path.join(data_dir, "mbox"), seed_value, community)
    archives = os.path.join(data_dir, "www", "archives")
    rows = []
    for slug, title, path in lists:
        out_dir = os.path.join(archives, slug)
        os.makedirs(out_dir)
        subprocess.run(
            ["mhonarc", "-quiet", "-outdir", out_dir, "-msgsep", MESSAGE_SEPARATOR,
             "-multipg", "-idxsize", str(INDEX_SIZE), "-title", f"{title} (by date)",
             "-ttitle", f"{title} (by thread)", path],
            check=True, timeout=300)
        count = sum(1 for name in os.listdir(out_dir) if re.fullmatch(r"msg\d+\.html", name))
        description = community.boards[[b[0] for b in community.boards].index(title)][1]
        rows.append(
            f'<tr><td><a href="{slug}/threads.html">{html.escape(title)}</a></td>'
            f"<td>{html.escape(description)}</td><td>{count} messages</td>"
            f'<td><a href="{slug}/threads.html">by thread</a> '
            f'<a href="{slug}/maillist.html">by date</a></td></tr>')
    with open(os.path.join(archives, "index.html"), "w", encoding="utf-8") as out:
        out.write(
            "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Mailing list archives"
            "</title></head>\n<body><h1>Mailing list archives</h1>\n"
            "<p>Public archives of the community's mailing lists.</p>\n<table>\n"
            "<tr><th>List</th><th>Description</th><th>Size</th><th>Archive</th></tr>\n"
            + "\n".join(rows) + "\n</table>\n</body></html>\n")
    total = sum(len(thread.posts) for thread in community.threads)
    print(f"seeded mhonarc: {len(lists)} lists, {len(community.threads)} threads, "
          f"{total} messages")


def serve(data_dir, port, lifetime):
    import functools
    from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

    root = os.path.join(os.path.abspath(data_dir), "www")

    class ArchiveHandler(SimpleHTTPRequestHandler):
        def do_GET(self):
            path = self.path.split("?", 1)[0].split("#", 1)[0]
            if path == "/":
                self.send_response(302)
                self.send_header("Location", "/archives/")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            local = self.translate_path(path)
            if os.path.isdir(local) and path.endswith("/") and not os.path.exists(
                    os.path.join(local, "index.html")):
                self.send_error(403, "Directory listing is not allowed")
                return
            super().do_GET()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", port),
                                 functools.partial(ArchiveHandler, directory=root))
    server.daemon_threads = True
    serve_for_at_most(server, lifetime, f"mhonarc archive on http://127.0.0.1:{port}/")


if __name__ == "__main__":
    run_command_line(seed, serve, __doc__)
