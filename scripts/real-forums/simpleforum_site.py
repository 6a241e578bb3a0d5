"""django-simple-forum on loopback: seed a fresh SQLite forum from the synthetic community, or
serve it.

usage: simpleforum_site.py seed DATA_DIR SEED
       simpleforum_site.py serve DATA_DIR PORT LIFETIME_SECONDS

Runs inside the simpleforum venv (Python 3.6: django-simple-forum 0.0.7 needs Django < 1.10).
One file is the whole Django project: the engine's app with its template tags' apps
(simple_pagination, sorl.thumbnail), SQLite, and its URLs at the site root. The engine's URLs
carry no ids, only slugs (`/category/<slug>/`, `/topic/view/<slug>/`); a thread is one page, its
first post the topic's description and the rest comments. Seeding goes through the engine's
models as its forms do (slugs from titles, categories active, topics published, comments
flat); only Django's clock is replaced while seeding, and the `auto_now` times the models keep
are then set to the community's, as the forum would show them had the posts been written then.

The engine reaches out of the machine on its own: a topic page asks Google's URL shortener for
a short link (microurl.google_mini, inside a try that falls back to the page's own URL), and
the Facebook and Google sign-in links answer redirects to those sites. Serving therefore swaps
the shortener for one that fails at once, answers 404 at the two sign-in paths (a site without
social sign-in configured), and refuses any connection that is not to loopback.
"""

import datetime
import os
import sys
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from community import make_community, quiet_threading_wsgi_server, run_command_line, serve_for_at_most  # noqa: E402


def refuse_non_loopback_connections():
    """Every outgoing connection of this process must go to 127.0.0.0/8 or ::1."""
    import ipaddress
    import socket

    original_connect = socket.socket.connect

    def guarded_connect(sock, address):
        host = address[0] if isinstance(address, tuple) else None
        if host is not None:
            try:
                loopback = ipaddress.ip_address(host).is_loopback
            except ValueError:
                loopback = host == "localhost"
            if not loopback:
                raise OSError("loopback only: refused a connection to %r" % (host,))
        return original_connect(sock, address)

    socket.socket.connect = guarded_connect


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
                               "NAME": os.path.join(data_dir, "simpleforum.sqlite")}},
        INSTALLED_APPS=[
            "django.contrib.admin", "django.contrib.auth", "django.contrib.contenttypes",
            "django.contrib.sessions", "django.contrib.messages", "django.contrib.staticfiles",
            "simple_pagination", "sorl.thumbnail", "compressor", "django_simple_forum",
        ],
        # Its base template wraps the stylesheets in django-compressor's tag; uncompressed, the
        # tag prints them as they are.
        COMPRESS_ENABLED=False,
        STATICFILES_FINDERS=["django.contrib.staticfiles.finders.FileSystemFinder",
                             "django.contrib.staticfiles.finders.AppDirectoriesFinder",
                             "compressor.finders.CompressorFinder"],
        MIDDLEWARE_CLASSES=[
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
                "django.template.context_processors.static",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ]},
        }],
        STATIC_URL="/static/",
        STATIC_ROOT=os.path.join(data_dir, "static"),
        MEDIA_URL="/media/",
        MEDIA_ROOT=os.path.join(data_dir, "media"),
        # Settings the engine reads; mail and social sign-in are never used here.
        HOST_URL="http://127.0.0.1",
        DEFAULT_FROM_EMAIL="forum@example.invalid",
        MAIL_SENDER="NONE",
        MINIFIED_URL="",
        FB_APP_ID="", FB_SECRET="", GP_CLIENT_ID="", GP_CLIENT_SECRET="",
        SG_USER="", SG_PWD="", MGUN_API_URL="", MGUN_API_KEY="",
    )
    django.setup()


def urls():
    from django.conf.urls import include, url
    from django.http import Http404

    def not_configured(request):
        raise Http404("social sign-in is not configured on this site")

    return [
        url(r"^fb_login/$", not_configured),
        url(r"^gp_login/$", not_configured),
        url(r"^", include("django_simple_forum.urls", namespace="django_simple_forum")),
    ]


def seed(data_dir, seed_value):
    database = os.path.join(data_dir, "simpleforum.sqlite")
    if os.path.exists(database):
        os.remove(database)
    configure(data_dir)
    from django.core.management import call_command
    from django.db import connection, transaction
    from django.contrib.auth.models import User
    from django.template.defaultfilters import slugify
    from django_simple_forum.models import Comment, ForumCategory, Topic, UserProfile

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
        UserProfile.objects.create(user=user, user_roles="Publisher")
        users.append(user)

    categories = []
    for title, description, parent, _share in community.boards:
        categories.append(ForumCategory.objects.create(
            created_by=users[0], title=title, slug=slugify(title), description=description,
            is_active=True, parent=categories[parent] if parent is not None else None))

    events = []
    for thread_index, thread in enumerate(community.threads):
        for post_index, post in enumerate(thread.posts):
            events.append((post.created, thread_index, post_index))
    events.sort()
    topics = {}
    slugs = set()
    fake_now = [None]
    with mock.patch("django.utils.timezone.now", lambda: fake_now[0]), transaction.atomic():
        for created, thread_index, post_index in events:
            thread = community.threads[thread_index]
            post_data = thread.posts[post_index]
            moment = created.replace(tzinfo=datetime.timezone.utc)
            fake_now[0] = moment
            user = users[post_data.author]
            if post_index == 0:
                # The topic form slugs the title; the views look topics up by slug alone, so
                # two topics of one title would both fail: the second gets a number.
                slug = slugify(thread.title)
                number = 2
                while slug in slugs:
                    slug = "%s-%d" % (slugify(thread.title), number)
                    number += 1
                slugs.add(slug)
                topics[thread_index] = Topic.objects.create(
                    title=thread.title, description=post_data.text, created_by=user,
                    status="Published", category=categories[thread.board], slug=slug)
            else:
                Comment.objects.create(comment=post_data.text, commented_by=user,
                                       topic=topics[thread_index])
                # A comment's save leaves the topic alone; its list shows the topic "Updated
                # on" its last change, which a reply is on a forum.
                Topic.objects.filter(pk=topics[thread_index].pk).update(updated_on=moment)
    print("seeded simpleforum: %d users, %d categories, %d topics, %d posts"
          % (len(users), len(categories), len(topics), len(events)))


def serve(data_dir, port, lifetime):
    refuse_non_loopback_connections()
    configure(data_dir)
    import django_simple_forum.views

    def no_shortener(url, api_key):
        raise RuntimeError("no URL shortener on loopback")

    django_simple_forum.views.google_mini = no_shortener
    # ROOT_URLCONF names this module; its patterns can only be built once Django is set up.
    global urlpatterns
    urlpatterns = urls()
    from django.core.handlers.wsgi import WSGIHandler
    from django.contrib.staticfiles.handlers import StaticFilesHandler

    server = quiet_threading_wsgi_server(port, StaticFilesHandler(WSGIHandler()))
    serve_for_at_most(server, lifetime, "simpleforum on http://127.0.0.1:%d/" % port)


# Filled by serve() once settings exist (Django imports ROOT_URLCONF lazily, on the first request).
urlpatterns = []

if __name__ == "__main__":
    run_command_line(seed, serve, __doc__)
