"""The in_app order: include, exclude, known third-party places, project root, else False."""

from __future__ import annotations

import pytest

from hintline.traces._inapp import InAppPolicy, app_packages


class TestInAppOrder:
    @pytest.mark.parametrize(
        "path",
        [
            "/srv/app/.venv/lib/python3.11/site-packages/requests/api.py",
            "/usr/lib/python3/dist-packages/yaml/__init__.py",
            "/srv/app/node_modules/express/lib/router.js",
            "node:internal/modules/cjs/loader",
            "/srv/app/vendor/guzzlehttp/guzzle/src/Client.php",
            "/root/go/pkg/mod/github.com/lib/pq@v1.10.9/conn.go",
            "/rustc/59807616e/library/std/src/panicking.rs",
            "/home/u/.cargo/registry/src/index.crates.io-6f17d22bba15001f/tokio-1.0/src/lib.rs",
            "/srv/app/typo3/sysext/core/Classes/Database/Connection.php",
            "/srv/app/var/cache/code/core/sites.php",
            "/usr/lib/jvm/java-17-openjdk-amd64/lib/src.zip",
            "/usr/lib/ruby/3.1.0/json/common.rb",
            "<frozen importlib._bootstrap>",
        ],
    )
    def test_third_party_places_inside_project_root(self, path: str) -> None:
        """Known third-party places are not in app even inside the project root."""
        assert InAppPolicy(project_root="/srv/app").decide(path, None) is False

    def test_project_root_and_undecided(self) -> None:
        """Inside the project root → in app; elsewhere (or no root) → not in app."""
        p = InAppPolicy(project_root="/srv/app/")
        assert p.decide("/srv/app/src/main.py", None)
        assert not p.decide("/srv/application/x.py", None)
        assert not p.decide("/opt/other/x.py", None)
        assert p.decide("./src/main.rs", None)  # relative paths are the project's
        assert not p.decide("vendor/x/y.php", None)
        assert not InAppPolicy().decide("/srv/app/src/main.py", None)

    def test_include_beats_exclude_beats_third_party(self) -> None:
        """The include list wins over exclude, exclude over the project root."""
        p = InAppPolicy(project_root="/srv/app", include=["acme_sdk"], exclude=["/srv/app/generated/", "acme_sdk.x"])
        assert p.decide("/srv/app/.venv/lib/python3.11/site-packages/acme_sdk/c.py", None)
        assert p.decide("/x.py", "acme_sdk.x")
        assert not p.decide("/srv/app/generated/models.py", None)
        assert p.decide("/srv/app/models.py", None)

    def test_module_prefix_boundaries(self) -> None:
        """A module prefix matches whole segments only."""
        p = InAppPolicy(include=["com.example"])
        assert p.decide(None, "com.example.App")
        assert p.decide(None, "com.example$Inner")
        assert not p.decide(None, "com.examples.App")

    def test_jvm_packages(self) -> None:
        """Without paths, the app packages decide; JDK and frameworks never."""
        p = InAppPolicy(packages=["com.acme.shop"])
        assert p.decide("Cart.java", "com.acme.shop.cart.Cart")
        assert not p.decide("Thread.java", "java.lang.Thread")
        assert not p.decide("X.java", "org.springframework.web.X")

    def test_app_packages_from_outermost(self) -> None:
        """The app package comes from the outermost non-runtime, non-framework frames."""
        mods = ["org.apache.tools.ant.Main", "junit.framework.TestCase", "sun.reflect.X",
                "org.jsoup.integration.ParseTest", "org.jsoup.parser.Parser", "org.jsoup.helper.DataUtil"]
        assert app_packages(mods) == ("org.jsoup",)
        assert app_packages(["java.lang.Thread", "MainKt"]) == ("MainKt",)
        assert app_packages(["java.lang.Thread"]) == ()
