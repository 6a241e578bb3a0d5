"""FlaskBB on loopback: seed a fresh SQLite forum from the synthetic community, or serve it.

usage: flaskbb_site.py seed DATA_DIR SEED
       flaskbb_site.py serve DATA_DIR PORT LIFETIME_SECONDS

Runs inside the FlaskBB venv. Seeding goes through FlaskBB's own models (Topic.save, Post.save)
so counters, last-post columns and permissions are what the engine itself would write; only the
clock is replaced while seeding, so that creation times spread over months instead of all being
"now".
"""

import datetime
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from community import make_community, run_command_line, serve_for_at_most  # noqa: E402


def make_config(data_dir, search_index=True):
    data_dir = os.path.abspath(data_dir)

    class LoopbackConfig:
        DEBUG = False
        TESTING = False
        SERVER_NAME = None
        SQLALCHEMY_DATABASE_URI = "sqlite:///" + os.path.join(data_dir, "flaskbb.sqlite")
        SECRET_KEY = "loopback-benchmark-only"
        WTF_CSRF_SECRET_KEY = "loopback-benchmark-only"
        LOG_PATH = os.path.join(data_dir, "logs")
        USE_DEFAULT_LOGGING = False
        WHOOSHEE_DIR = os.path.join(data_dir, "whoosh")
        # The crawl asks for hundreds of pages a second; the engine's rate limiter would
        # answer 429 and measure the limiter instead of the crawler.
        RATELIMIT_ENABLED = False
        CACHE_TYPE = "NullCache"
        REDIS_ENABLED = False
        MAIL_SUPPRESS_SEND = True
        DEBUG_TB_ENABLED = False
        # Whoosh rewrites its index after every commit; seeding commits once per post, and
        # the crawl never searches, so the seeder leaves the index out.
        WHOOSHEE_ENABLE_INDEXING = search_index

    os.makedirs(LoopbackConfig.LOG_PATH, exist_ok=True)
    return LoopbackConfig


def seed(data_dir, seed_value):
    os.makedirs(data_dir, exist_ok=True)
    database = os.path.join(data_dir, "flaskbb.sqlite")
    if os.path.exists(database):
        os.remove(database)
    from flaskbb import create_app
    from flaskbb.extensions import db
    import flaskbb.forum.models as forum_models
    from flaskbb.forum.models import Category, Forum, Post, Topic
    from flaskbb.user.models import User, Group
    from flaskbb.utils.populate import (create_default_groups, create_default_settings,
                                        create_latest_db)

    from sqlalchemy import event
    from sqlalchemy.engine import Engine

    # Seeding commits once per post; without this SQLite syncs the disk a few thousand times.
    # Only the seeding connection is relaxed, the served forum uses the engine's defaults.
    @event.listens_for(Engine, "connect")
    def relax_sqlite_durability(connection, _record):
        cursor = connection.cursor()
        cursor.execute("PRAGMA synchronous = OFF")
        cursor.execute("PRAGMA journal_mode = MEMORY")
        cursor.close()

    community = make_community(seed=seed_value)
    app = create_app(make_config(data_dir, search_index=False))
    with app.app_context():
        create_latest_db()
        create_default_groups()
        create_default_settings()
        member_group = Group.get_member_group()
        admin_group = db.session.execute(
            db.select(Group).filter(Group.admin.is_(True))).scalar_one()
        users = []
        for index, name in enumerate(community.users):
            user = User(username=name, password="loopback-password",
                        email=f"user{index}@example.invalid",
                        primary_group_id=(admin_group.id if index == 0 else member_group.id),
                        activated=True)
            user.date_joined = datetime.datetime(2024, 10, 1, tzinfo=datetime.UTC) \
                + datetime.timedelta(days=index)
            user.save()
            users.append(user)

        # FlaskBB has categories holding forums but no sub-forums: the community's nested
        # board becomes a forum of a second category, which is the closest the engine shows.
        top_category = Category(title="Community", description="Talk about everything.",
                                position=1)
        top_category.save()
        hardware_category = Category(title="Workshop", description="Building things.",
                                     position=2)
        hardware_category.save()
        forums = []
        for index, (title, description, parent, _share) in enumerate(community.boards):
            category = hardware_category if parent is not None else top_category
            forum = Forum(title=title, description=description, category_id=category.id,
                          position=index + 1)
            forum.save()
            forums.append(forum)

        # Replace the engine's clock while saving, so every counter and last-post column is
        # computed by FlaskBB from the times we choose. Threads are saved in time order.
        fake_now = [None]
        forum_models.time_utcnow = lambda: fake_now[0]
        order = sorted(range(len(community.threads)),
                       key=lambda i: community.threads[i].posts[0].created)
        events = []
        for thread_index in order:
            for post_index, post in enumerate(community.threads[thread_index].posts):
                events.append((post.created, thread_index, post_index))
        events.sort()
        topics = {}
        for created, thread_index, post_index in events:
            thread = community.threads[thread_index]
            post_data = thread.posts[post_index]
            fake_now[0] = created.replace(tzinfo=datetime.UTC)
            user = users[post_data.author]
            if post_index == 0:
                topic = Topic(title=thread.title)
                topic.save(user=user, forum=forums[thread.board],
                           post=Post(content=post_data.text))
                topics[thread_index] = topic
            else:
                post = Post(content=post_data.text)
                post.save(user=user, topic=topics[thread_index])
        for forum in forums:
            forum.recalculate(last_post=True)
        for user in users:
            user.recalculate()
        db.session.commit()
        print(f"seeded FlaskBB: {len(users)} users, {len(forums)} forums, "
              f"{len(topics)} topics, {len(events)} posts")


def serve(data_dir, port, lifetime):
    from werkzeug.serving import make_server
    from flaskbb import create_app

    app = create_app(make_config(data_dir))
    server = make_server("127.0.0.1", port, app, threaded=True)
    serve_for_at_most(server, lifetime, f"FlaskBB on http://127.0.0.1:{port}/")


if __name__ == "__main__":
    run_command_line(seed, serve, __doc__)
