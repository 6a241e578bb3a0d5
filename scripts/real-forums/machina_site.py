"""django-machina on loopback: seed a fresh SQLite forum from the synthetic community, or serve it.

usage: machina_site.py seed DATA_DIR SEED
       machina_site.py serve DATA_DIR PORT LIFETIME_SECONDS

Runs inside the machina venv. One file is the whole Django project: settings are configured in
code (the engine's documented apps, middleware and context processor, SQLite, the simple search
backend) and machina's URLs are mounted at the site root. Seeding goes through machina's models
so its trackers and counters are the engine's own; only Django's clock is replaced while seeding.
"""

import datetime
import os
import sys
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from community import make_community, quiet_threading_wsgi_server, run_command_line, serve_for_at_most  # noqa: E402


def configure(data_dir):
    import django
    from django.conf import settings
    from machina import MACHINA_MAIN_STATIC_DIR, MACHINA_MAIN_TEMPLATE_DIR

    data_dir = os.path.abspath(data_dir)
    os.makedirs(data_dir, exist_ok=True)
    settings.configure(
        DEBUG=False,
        SECRET_KEY="loopback-benchmark-only",
        ALLOWED_HOSTS=["127.0.0.1", "localhost"],
        ROOT_URLCONF=__name__,
        USE_TZ=True,
        TIME_ZONE="UTC",
        DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3",
                               "NAME": os.path.join(data_dir, "machina.sqlite")}},
        INSTALLED_APPS=[
            "django.contrib.admin", "django.contrib.auth", "django.contrib.contenttypes",
            "django.contrib.sessions", "django.contrib.messages", "django.contrib.staticfiles",
            "mptt", "haystack", "widget_tweaks",
            "machina",
            "machina.apps.forum",
            "machina.apps.forum_conversation",
            "machina.apps.forum_conversation.forum_attachments",
            "machina.apps.forum_conversation.forum_polls",
            "machina.apps.forum_feeds",
            "machina.apps.forum_moderation",
            "machina.apps.forum_search",
            "machina.apps.forum_tracking",
            "machina.apps.forum_member",
            "machina.apps.forum_permission",
        ],
        MIDDLEWARE=[
            "django.middleware.security.SecurityMiddleware",
            "django.contrib.sessions.middleware.SessionMiddleware",
            "django.middleware.common.CommonMiddleware",
            "django.middleware.csrf.CsrfViewMiddleware",
            "django.contrib.auth.middleware.AuthenticationMiddleware",
            "django.contrib.messages.middleware.MessageMiddleware",
            "machina.apps.forum_permission.middleware.ForumPermissionMiddleware",
        ],
        TEMPLATES=[{
            "BACKEND": "django.template.backends.django.DjangoTemplates",
            "DIRS": [MACHINA_MAIN_TEMPLATE_DIR],
            "APP_DIRS": True,
            "OPTIONS": {"context_processors": [
                "django.template.context_processors.debug",
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "machina.core.context_processors.metadata",
            ]},
        }],
        STATIC_URL="/static/",
        STATICFILES_DIRS=[MACHINA_MAIN_STATIC_DIR],
        CACHES={
            "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
            "machina_attachments": {
                "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
                "LOCATION": os.path.join(data_dir, "attachments-cache"),
            },
        },
        HAYSTACK_CONNECTIONS={
            "default": {"ENGINE": "haystack.backends.simple_backend.SimpleEngine"}},
        DEFAULT_AUTO_FIELD="django.db.models.AutoField",
        MACHINA_FORUM_NAME="Loopback Community",
    )
    django.setup()


def urls():
    from django.urls import include, path
    return [path("", include("machina.urls"))]


def seed(data_dir, seed_value):
    database = os.path.join(data_dir, "machina.sqlite")
    if os.path.exists(database):
        os.remove(database)
    configure(data_dir)
    from django.core.management import call_command
    from django.db import connection, transaction
    from django.contrib.auth.models import User
    from machina.apps.forum.models import Forum
    from machina.apps.forum_conversation.models import Post, Topic
    from machina.apps.forum_permission.models import ForumPermission, UserForumPermission

    call_command("migrate", verbosity=0)
    with connection.cursor() as cursor:
        # Seeding commits many small transactions; the served forum keeps SQLite's defaults.
        cursor.execute("PRAGMA synchronous = OFF")
    community = make_community(seed=seed_value)

    # Anonymous visitors may see and read every forum, as on a public board.
    for codename in ("can_see_forum", "can_read_forum"):
        permission = ForumPermission.objects.get(codename=codename)
        UserForumPermission.objects.create(permission=permission, anonymous_user=True,
                                           has_perm=True, forum=None)
        UserForumPermission.objects.create(permission=permission, authenticated_user=True,
                                           has_perm=True, forum=None)

    users = []
    for index, name in enumerate(community.users):
        user = User(username=name, email=f"user{index}@example.invalid",
                    date_joined=datetime.datetime(2024, 10, 1, tzinfo=datetime.UTC)
                    + datetime.timedelta(days=index))
        # A fixed unusable password avoids hashing thirty passwords nobody will type.
        user.set_unusable_password()
        user.save()
        users.append(user)

    category = Forum.objects.create(name="Community", type=Forum.FORUM_CAT)
    forums = []
    for title, description, parent, _share in community.boards:
        parent_forum = forums[parent] if parent is not None else category
        forums.append(Forum.objects.create(name=title, description=description,
                                           type=Forum.FORUM_POST, parent=parent_forum))

    events = []
    for thread_index, thread in enumerate(community.threads):
        for post_index, post in enumerate(thread.posts):
            events.append((post.created, thread_index, post_index))
    events.sort()
    topics = {}
    fake_now = [None]
    with mock.patch("django.utils.timezone.now", lambda: fake_now[0]), transaction.atomic():
        for created, thread_index, post_index in events:
            thread = community.threads[thread_index]
            post_data = thread.posts[post_index]
            fake_now[0] = created.replace(tzinfo=datetime.UTC)
            user = users[post_data.author]
            if post_index == 0:
                topic = Topic.objects.create(forum=forums[thread.board], subject=thread.title,
                                             poster=user, type=Topic.TOPIC_POST,
                                             status=Topic.TOPIC_UNLOCKED, approved=True)
                topics[thread_index] = topic
                subject = thread.title
            else:
                topic = topics[thread_index]
                subject = "Re: " + thread.title
            Post.objects.create(topic=topic, poster=user, subject=subject,
                                content=post_data.text, approved=True)
    for forum in Forum.objects.all():
        forum.update_trackers()
    print(f"seeded machina: {len(users)} users, {len(forums)} forums, {len(topics)} topics, "
          f"{len(events)} posts")


def serve(data_dir, port, lifetime):
    configure(data_dir)
    # ROOT_URLCONF names this module; its patterns can only be built once Django is set up.
    global urlpatterns
    urlpatterns = urls()
    from django.core.handlers.wsgi import WSGIHandler
    from django.contrib.staticfiles.handlers import StaticFilesHandler

    server = quiet_threading_wsgi_server(port, StaticFilesHandler(WSGIHandler()))
    serve_for_at_most(server, lifetime, f"machina on http://127.0.0.1:{port}/")


# Filled by serve() once settings exist (Django imports ROOT_URLCONF lazily, on the first request).
urlpatterns = []

if __name__ == "__main__":
    run_command_line(seed, serve, __doc__)
