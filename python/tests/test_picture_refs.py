"""picture_refs: which pictures leave as files, what the reference says, and that failures stay inline."""

from __future__ import annotations

import base64
import hashlib
import os

from argus.picture_refs import FILE_REF_MIME, PICTURE_DIR, PictureWriter

from .support import WorkspaceTestCase


class PictureWriterTest(WorkspaceTestCase):
    def setUp(self) -> None:
        super().setUp()
        self.fd = os.open(".", os.O_RDONLY | os.O_DIRECTORY)
        self.addCleanup(os.close, self.fd)
        self.writer = PictureWriter(self.fd, threshold=1000)

    def test_small_pictures_and_other_mimes_stay_inline(self) -> None:
        bundle = {"image/png": b"\x89PNG" + b"x" * 100, "text/plain": "y" * 5000, "text/html": "z" * 5000}
        self.assertIs(self.writer.transform(bundle), bundle)
        self.assertFalse(os.path.exists(PICTURE_DIR))

    def test_big_png_bytes_become_a_reference_to_a_file_holding_them(self) -> None:
        png = b"\x89PNG\r\n\x1a\n" + os.urandom(5000)
        out = self.writer.transform({"image/png": png, "text/plain": "<Image>"})
        self.assertNotIn("image/png", out)
        self.assertEqual(out["text/plain"], "<Image>")
        [ref] = out[FILE_REF_MIME]["files"]
        self.assertEqual(ref["mime"], "image/png")
        self.assertEqual(ref["size"], len(png))
        self.assertEqual(ref["sha256"], hashlib.sha256(png).hexdigest())
        self.assertTrue(ref["path"].startswith(PICTURE_DIR + "/") and ref["path"].endswith(".png"))
        with open(ref["path"], "rb") as f:
            self.assertEqual(f.read(), png)

    def test_base64_text_from_a_raw_display_is_decoded_and_each_picture_gets_its_own_name(self) -> None:
        jpeg = os.urandom(3000)
        first = self.writer.transform({"image/jpeg": base64.b64encode(jpeg).decode("ascii")})
        second = self.writer.transform({"image/jpeg": base64.b64encode(jpeg).decode("ascii")})
        a, b = first[FILE_REF_MIME]["files"][0], second[FILE_REF_MIME]["files"][0]
        self.assertNotEqual(a["path"], b["path"])
        self.assertTrue(a["path"].endswith(".jpg"))
        with open(a["path"], "rb") as f:
            self.assertEqual(f.read(), jpeg)

    def test_text_that_is_not_base64_is_left_for_the_server_to_judge(self) -> None:
        bundle = {"image/png": "not base64 at all! " * 100}
        self.assertIs(self.writer.transform(bundle), bundle)

    def test_a_workspace_that_refuses_the_file_keeps_the_picture_inline(self) -> None:
        with open(PICTURE_DIR, "w") as f:  # a file where the folder should be
            f.write("in the way")
        png = os.urandom(5000)
        self.assertEqual(self.writer.transform({"image/png": png}), {"image/png": png})

    def test_the_folder_is_never_a_link_followed_out(self) -> None:
        os.mkdir("elsewhere")
        os.symlink("elsewhere", PICTURE_DIR)
        png = os.urandom(5000)
        self.assertEqual(self.writer.transform({"image/png": png}), {"image/png": png})
        self.assertEqual(os.listdir("elsewhere"), [])

    def test_clear_removes_pictures_nobody_collected(self) -> None:
        self.writer.transform({"image/png": os.urandom(5000)})
        self.assertEqual(len(os.listdir(PICTURE_DIR)), 1)
        self.writer.clear()
        self.assertEqual(os.listdir(PICTURE_DIR), [])

    def test_writes_follow_the_workspace_through_a_chdir(self) -> None:
        os.mkdir("sub")
        os.chdir("sub")
        out = self.writer.transform({"image/png": os.urandom(5000)})
        os.chdir("..")
        self.assertTrue(os.path.isfile(out[FILE_REF_MIME]["files"][0]["path"]))
        self.assertFalse(os.path.exists(os.path.join("sub", PICTURE_DIR)))
