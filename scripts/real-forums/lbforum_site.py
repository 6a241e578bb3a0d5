"""LBForum on loopback: seed a fresh SQLite forum from the synthetic community, or serve it.

usage: lbforum_site.py seed DATA_DIR SEED
       lbforum_site.py serve DATA_DIR PORT LIFETIME_SECONDS

Runs inside the lbforum venv (Python 3.6: LBForum 2.0.1 pins Django 1.10). One file is the whole
Django project: the apps and settings LBForum's README lists (constance on its database backend,
no bower: the crawler fetches no script), SQLite, and LBForum's URLs at the site root. LBForum
has categories holding flat forums (no sub-forums), so every board is a forum of one category.
Seeding goes through LBForum's models, as its new-post form does (the topic, then its first post,
then the topic pointing at that post; the post's save signal updates the counters); only
Django's clock is replaced while seeding.
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

    data_dir = os.path.abspath(data_dir)
    os.makedirs(data_dir, exist_ok=True)
    settings.configure(
        DEBUG=False,
        SECRET_KEY="loopback-benchmark-only",
        ALLOWED_HOSTS=["127.0.0.1", "localhost"],
        ROOT_URLCONF=__name__,
        USE_TZ=True,
        TIME_ZONE="UTC",
        LANGUAGE_CODE="en",
        DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3",
                               "NAME": os.path.join(data_dir, "lbforum.sqlite")}},
        INSTALLED_APPS=[
            "django.contrib.admin", "django.contrib.auth", "django.contrib.contenttypes",
            "django.contrib.sessions", "django.contrib.messages", "django.contrib.staticfiles",
            "rest_framework", "el_pagination", "easy_thumbnails", "constance",
            "constance.backends.database", "lbforum", "lbattachment", "lbutils",
        ],
        MIDDLEWARE=[
            "django.middleware.security.SecurityMiddleware",
            "django.contrib.sessions.middleware.SessionMiddleware",
            "django.middleware.common.CommonMiddleware",
            "django.middleware.csrf.CsrfViewMiddleware",
            "django.contrib.auth.middleware.AuthenticationMiddleware",
            "django.contrib.messages.middleware.MessageMiddleware",
        ],
        TEMPLATES=[{
            "BACKEND": "django.template.backends.django.DjangoTemplates",
            "DIRS": [],
            "APP_DIRS": True,
            "OPTIONS": {"context_processors": [
                "django.template.context_processors.debug",
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.template.context_processors.static",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ]},
        }],
        STATIC_URL="/static/",
        STATIC_ROOT=os.path.join(data_dir, "static"),
        MEDIA_URL="/media/",
        MEDIA_ROOT=os.path.join(data_dir, "media"),
        # The README's settings; the account pages they name are not part of LBForum.
        SIGNUP_URL="/accounts/signup/",
        LOGIN_URL="/accounts/login/",
        LOGOUT_URL="/accounts/logout/",
        LOGIN_REDIRECT_URL="/",
        CHANGE_PASSWORD_URL="/accounts/password/change/",
        LBFORUM_TITLE="Loopback Community",
        LBFORUM_SUB_TITLE="a forum on 127.0.0.1",
        CONSTANCE_BACKEND="constance.backends.database.DatabaseBackend",
        CONSTANCE_CONFIG={"forbidden_words": ("", "Forbidden words", str)},
        BBCODE_AUTO_URLS=True,
    )
    django.setup()


def urls():
    from django.conf.urls import include, url
    return [
        url(r"^", include("lbforum.urls")),
        url(r"^attachments/", include("lbattachment.urls")),
    ]


def seed(data_dir, seed_value):
    database = os.path.join(data_dir, "lbforum.sqlite")
    if os.path.exists(database):
        os.remove(database)
    configure(data_dir)
    from django.core.management import call_command
    from django.db import connection, transaction
    from django.contrib.auth.models import User
    from lbforum.models import Category, Forum, LBForumUserProfile, Post, Topic

    call_command("migrate", verbosity=0)
    with connection.cursor() as cursor:
        # Seeding commits many small transactions; the served forum keeps SQLite's defaults.
        cursor.execute("PRAGMA synchronous = OFF")
    community = make_community(seed=seed_value)

    users = []
    for index, name in enumerate(community.users):
        user = User(username=name, email="user%d@example.invalid" % index,
                    date_joined=datetime.datetime(2024, 10, 1, tzinfo=datetime.timezone.utc)
                    + datetime.timedelta(days=index))
        # Nobody logs in; an unusable password avoids hashing thirty passwords.
        user.set_unusable_password()
        user.save()
        # LBForum's own signal that makes a profile is commented out in 2.0.1; its pages need
        # one per poster, and its profile form fills the nickname.
        LBForumUserProfile.objects.create(user=user, nickname=name)
        users.append(user)

    category = Category.objects.create(name="Community", descn="The community's forums.")
    forums = []
    for position, (title, description, _parent, _share) in enumerate(community.boards):
        slug = "-".join(title.lower().split())
        forums.append(Forum.objects.create(name=title, slug=slug, description=description,
                                           category=category, oid=position))

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
            fake_now[0] = created.replace(tzinfo=datetime.timezone.utc)
            user = users[post_data.author]
            first = post_index == 0
            if first:
                topics[thread_index] = Topic.objects.create(
                    forum=forums[thread.board], posted_by=user, subject=thread.title)
            topic = topics[thread_index]
            post = Post.objects.create(topic=topic, posted_by=user, poster_ip="127.0.0.1",
                                       message=post_data.text, topic_post=first)
            if first:
                topic.post = post
                topic.save()
    print("seeded lbforum: %d users, %d forums, %d topics, %d posts"
          % (len(users), len(forums), len(topics), len(events)))


def serve(data_dir, port, lifetime):
    configure(data_dir)
    # ROOT_URLCONF names this module; its patterns can only be built once Django is set up.
    global urlpatterns
    urlpatterns = urls()
    from django.core.handlers.wsgi import WSGIHandler
    from django.contrib.staticfiles.handlers import StaticFilesHandler

    server = quiet_threading_wsgi_server(port, StaticFilesHandler(WSGIHandler()))
    serve_for_at_most(server, lifetime, "lbforum on http://127.0.0.1:%d/" % port)


# Filled by serve() once settings exist (Django imports ROOT_URLCONF lazily, on the first request).
urlpatterns = []

if __name__ == "__main__":
    run_command_line(seed, serve, __doc__)
