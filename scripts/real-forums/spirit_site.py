"""django-spirit on loopback: seed a fresh SQLite forum from the synthetic community, or serve it.

usage: spirit_site.py seed DATA_DIR SEED
       spirit_site.py serve DATA_DIR PORT LIFETIME_SECONDS

Runs inside the Spirit venv. One file is the whole Django project: the apps, middleware and
context processors Spirit's project template lists, SQLite, local-memory caches (the template's
database caches need an extra table and only slow a benchmark down) and Spirit's URLs at the
root. Seeding goes through Spirit's models and its Markdown renderer, the same one its comment
form uses; only Django's clock is replaced while seeding.
"""

import datetime
import os
import sys
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from community import make_community, quiet_threading_wsgi_server, run_command_line, serve_for_at_most  # noqa: E402


def configure(data_dir, site_url="http://127.0.0.1/"):
    import django
    from django.conf import settings

    data_dir = os.path.abspath(data_dir)
    os.makedirs(data_dir, exist_ok=True)
    spirit_apps = [
        "spirit.core", "spirit.admin", "spirit.search", "spirit.user", "spirit.user.admin",
        "spirit.user.auth", "spirit.category", "spirit.category.admin", "spirit.topic",
        "spirit.topic.admin", "spirit.topic.favorite", "spirit.topic.moderate",
        "spirit.topic.notification", "spirit.topic.private", "spirit.topic.unread",
        "spirit.comment", "spirit.comment.bookmark", "spirit.comment.flag",
        "spirit.comment.flag.admin", "spirit.comment.history", "spirit.comment.like",
        "spirit.comment.poll",
    ]
    settings.configure(
        DEBUG=False,
        SECRET_KEY="loopback-benchmark-only",
        ALLOWED_HOSTS=["127.0.0.1", "localhost"],
        ROOT_URLCONF=__name__,
        USE_TZ=True,
        TIME_ZONE="UTC",
        USE_I18N=True,
        LANGUAGE_CODE="en",
        DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3",
                               "NAME": os.path.join(data_dir, "spirit.sqlite")}},
        INSTALLED_APPS=[
            "django.contrib.admin", "django.contrib.auth", "django.contrib.contenttypes",
            "django.contrib.sessions", "django.contrib.messages", "django.contrib.staticfiles",
            "django.contrib.humanize",
        ] + spirit_apps + ["djconfig", "haystack"],
        MIDDLEWARE=[
            "django.middleware.security.SecurityMiddleware",
            "django.contrib.sessions.middleware.SessionMiddleware",
            "django.middleware.locale.LocaleMiddleware",
            "django.middleware.common.CommonMiddleware",
            "django.middleware.csrf.CsrfViewMiddleware",
            "django.contrib.auth.middleware.AuthenticationMiddleware",
            "django.contrib.messages.middleware.MessageMiddleware",
            "spirit.user.middleware.TimezoneMiddleware",
            "spirit.user.middleware.LastIPMiddleware",
            "spirit.user.middleware.LastSeenMiddleware",
            "spirit.user.middleware.ActiveUserMiddleware",
            "spirit.core.middleware.PrivateForumMiddleware",
            "djconfig.middleware.DjConfigMiddleware",
        ],
        TEMPLATES=[{
            "BACKEND": "django.template.backends.django.DjangoTemplates",
            "DIRS": [],
            "APP_DIRS": True,
            "OPTIONS": {"context_processors": [
                "django.contrib.auth.context_processors.auth",
                "django.template.context_processors.debug",
                "django.template.context_processors.i18n",
                "django.template.context_processors.media",
                "django.template.context_processors.static",
                "django.template.context_processors.tz",
                "django.template.context_processors.request",
                "django.contrib.messages.context_processors.messages",
                "djconfig.context_processors.config",
            ]},
        }],
        CACHES={
            "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
            "st_rate_limit": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                              "LOCATION": "st_rate_limit"},
        },
        AUTHENTICATION_BACKENDS=["spirit.user.auth.backends.UsernameAuthBackend",
                                 "spirit.user.auth.backends.EmailAuthBackend"],
        HAYSTACK_CONNECTIONS={
            "default": {"ENGINE": "haystack.backends.simple_backend.SimpleEngine"}},
        LOGIN_URL="spirit:user:auth:login",
        LOGIN_REDIRECT_URL="spirit:user:update",
        LOGOUT_REDIRECT_URL="spirit:index",
        STATIC_URL="/static/",
        MEDIA_URL="/media/",
        MEDIA_ROOT=os.path.join(data_dir, "media"),
        STATIC_ROOT=os.path.join(data_dir, "static"),
        DEFAULT_AUTO_FIELD="django.db.models.AutoField",
        # Spirit builds absolute links (e-mails, feeds) from it and refuses to start without it.
        ST_SITE_URL=site_url,
    )
    django.setup()


def urls():
    from django.urls import include, path
    return [path("", include("spirit.urls"))]


def seed(data_dir, seed_value):
    database = os.path.join(data_dir, "spirit.sqlite")
    if os.path.exists(database):
        os.remove(database)
    configure(data_dir)
    from django.core.management import call_command
    from django.db import connection, transaction
    from django.contrib.auth import get_user_model
    from spirit.category.models import Category
    from spirit.comment.models import Comment
    from spirit.core.utils.markdown import Markdown
    from spirit.topic.models import Topic

    call_command("migrate", verbosity=0)
    with connection.cursor() as cursor:
        # Seeding commits many small transactions; the served forum keeps SQLite's defaults.
        cursor.execute("PRAGMA synchronous = OFF")
    community = make_community(seed=seed_value)
    User = get_user_model()
    users = []
    for index, name in enumerate(community.users):
        user = User(username=name, email=f"user{index}@example.invalid",
                    date_joined=datetime.datetime(2024, 10, 1, tzinfo=datetime.UTC)
                    + datetime.timedelta(days=index))
        # Nobody logs in; an unusable password avoids hashing thirty passwords.
        user.set_unusable_password()
        user.save()
        users.append(user)

    categories = []
    for title, description, parent, _share in community.boards:
        categories.append(Category.objects.create(
            title=title, description=description,
            parent=categories[parent] if parent is not None else None))

    events = []
    for thread_index, thread in enumerate(community.threads):
        for post_index, post in enumerate(thread.posts):
            events.append((post.created, thread_index, post_index))
    events.sort()
    topics = {}
    markdown = Markdown()
    fake_now = [None]
    with mock.patch("django.utils.timezone.now", lambda: fake_now[0]), transaction.atomic():
        for created, thread_index, post_index in events:
            thread = community.threads[thread_index]
            post_data = thread.posts[post_index]
            moment = created.replace(tzinfo=datetime.UTC)
            fake_now[0] = moment
            user = users[post_data.author]
            if post_index == 0:
                topics[thread_index] = Topic.objects.create(
                    user=user, category=categories[thread.board], title=thread.title,
                    date=moment, last_active=moment)
            topic = topics[thread_index]
            Comment.objects.create(user=user, topic=topic, comment=post_data.text,
                                   comment_html=markdown.render(post_data.text), date=moment)
            # What Spirit's comment view does after saving: the topic's counters and activity.
            Topic.objects.filter(pk=topic.pk).update(
                comment_count=post_index + 1,
                last_active=moment)
    print(f"seeded spirit: {len(users)} users, {len(categories)} categories, {len(topics)} "
          f"topics, {len(events)} comments")


def serve(data_dir, port, lifetime):
    configure(data_dir, f"http://127.0.0.1:{port}/")
    # ROOT_URLCONF names this module; its patterns can only be built once Django is set up.
    global urlpatterns
    urlpatterns = urls()
    from django.core.handlers.wsgi import WSGIHandler
    from django.contrib.staticfiles.handlers import StaticFilesHandler

    server = quiet_threading_wsgi_server(port, StaticFilesHandler(WSGIHandler()))
    serve_for_at_most(server, lifetime, f"spirit on http://127.0.0.1:{port}/")


# Filled by serve() once settings exist (Django imports ROOT_URLCONF lazily, on the first request).
urlpatterns = []

if __name__ == "__main__":
    run_command_line(seed, serve, __doc__)
