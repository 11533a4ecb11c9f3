"""Real Thai and Arabic text for the mining and alignment tests (issue 43), and a tiny static model that knows it.

The sentences are LibreOffice user-interface strings (MPL-2.0; Debian's libreoffice-l10n-th / -ar, via
lingualite's ``libreoffice-ui`` source), copied byte for byte from ``data/prepared-ui/en-th/test.tsv`` and
``en-ar/test.tsv`` (2026-11-27; the string's id after each line). They were chosen for what Thai and Arabic
text holds that ASCII fixtures do not: Thai without spaces between words and a space (no stop) between
sentences; Arabic in logical order with its own question mark (؟), comma (،) and digits (١ ٢), bidi marks
(U+200F RLM at the start of a line, U+200E LRM inside "FTP://") and zero-width non-joiners (U+200C).

:func:`write_pair_model` writes a static model (``static:FOLDER``, the format of model2vec and
``lingualite-static``) with a vocabulary trained by lingualite's own tokenizer trainer on these strings, and a
token table solved so that each string, its two translations and their sentences
(:func:`~lingualite.text.segmentation.split_sentences`) get the same vector (least squares onto one random
vector per string, an exact fit: there are far more tokens than texts). It stands in
for a multilingual model, as the packaged ones do not cover Thai or Arabic; what the tests check is that the
text reaches the encoder, the search and the output files unharmed.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

# (English, Thai, Arabic): LibreOffice UI strings, MPL-2.0 (see the module docstring)
TRIPLES: list[tuple[str, str, str]] = [
    ("Vertical scroll bar", "แถบเลื่อนจอภาพแนวตั้ง", "شريط تمرير رأسيّ"),  # loui:acc/RID_STR_ACC_SCROLLBAR_NAME_VERTICAL
    ("You will have to restart the program after this edit. Continue?", "คุณต้องเริ่มโปรแกรมใหม่หลังการแก้ไขนี้ ทำต่อหรือไม่?", "ستحتاج إلى إعادة تشغيل البرنامج بعد هذا التّحرير. أأتابع؟"),  # loui:basctl/RID_STR_WILLSTOPPRG
    ("The row could not be deleted. It is already deleted.", "ไม่สามารถลบแถวที่ถูกลบไปแล้ว", "تعذر حذف الصف. فقد تم حذفه بالفعل."),  # loui:cnr/STR_ROW_ALREADY_DELETED
    ("The file could not be saved!", "ไม่สามารถบันทึกแฟ้มนี้ได้!", "تعذّر حفظ الملف!"),  # loui:cui/querynosavefiledialog
    ("There are no more commands on the toolbar. Do you want to delete the toolbar?", "ไม่มีคำสั่งใดๆ เหลืออยู่บนแถบเครื่องมือ คุณต้องการลบแถบเครื่องมือนี้หรือไม่?", "لا أوامر أكثر في شريط الأدوات. أتريد حذفه؟"),  # loui:cui/RID_SXVSTR_CONFIRM_DELETE_TOOLBAR
    ("Invalid value! The maximum value for a port number is 65535.", "ค่าไม่ถูกต้อง! ค่าสูงที่สุดสำหรับหมายเลขพอร์ตคือ 65535", "قيمة غير صالحة! أقصى قيمة لرقم المنفذ هي 65535."),  # loui:cui/RID_SVXSTR_OPT_PROXYPORTS
    ("LibreOffice is derived from LibreOffice which was based on OpenOffice.org", "LibreOffice พัฒนาต่อจาก LibreOffice ซึ่งสร้างมาจาก OpenOffice.org", "\u200fLibreOffice مشتقّ من ليبر أوفيس المبني على أوبن أوفيس.أورغ."),  # loui:cui/aboutdialog
    ("Creates an \"FTP://\" hyperlink.", "สร้างไฮเพอร์ลิงก์ชนิด \"FTP://\"", "يُنشئ ارتباط \"FTP\u200e:\u200e/\u200e/\u200e\" تشعبي."),  # loui:cui/hyperlinkinternetpage
    ("Scrolls text from left to right.", "เลื่อนข้อความจากซ้ายไปขวา", "لفّ النص من اليسار إلى اليمين."),  # loui:cui/textanimtabpage
    ("Changes the font color of negative numbers to red.", "เปลี่ยนสีตัวอักษรของเลขลบเป็นสีแดง", "يغير لون خط الأرقام السلبية إلى الأحمر."),  # loui:cui/numberingformatpage
    ("The icon %ICONNAME is already contained in the image list. Would you like to replace the existing icon?", "ไอคอน %ICONNAME นั้นอยู่ในรายการภาพอยู่แล้ว คุณต้องการแทนที่ไอคอนที่มีอยู่แล้วนั้นหรือไม่?", "تم تضمين الرمز %ICONNAME في قائمة الصور بالفعل. هل ترغب في استبدال الرمز الموجود؟"),  # loui:cui/RID_SVXSTR_REPLACE_ICON_WARNING
    ("Type the name of your street in this field.", "ป้อนชื่อถนนของคุณในช่องนี้", "اكتب اسم شارعك في هذا الحقل."),  # loui:cui/street
    ("Standard;Text;Date (DMY);Date (MDY);Date (YMD);US English;Hide", "มาตรฐาน;ข้อความ;วันที่ (วดป);วันที่ (ดวป);วันที่ (ปดว);อเมริกัน อังกฤษ;ซ่อน", "قياسي;نص;تاريخ (ي\u200f\u200cش\u200c\u200fس);تاريخ (ش\u200c\u200fي\u200f\u200cس);تاريخ (س\u200c\u200fش\u200c\u200fي);إنجليزية الولايات المتحدة;إخفاء"),  # loui:sc/SCSTR_COLUMN_USER
    ("The folder you selected does not contain a Java runtime environment. Please select a different folder.", "โฟลเดอร์ที่คุณเลือกไม่มี Java runtime environment กรุณาเลือกโฟลเดอร์อื่น", "المجلد الذي اخترته لا يحوي بيئة جافا التّشغيليّة. فضلًا اختر مجلّدًا آخر."),  # loui:cui/RID_SVXSTR_JRE_NOT_RECOGNIZED
    ("Home telephone number", "หมายเลขโทรศัพท์บ้าน", "رقم هاتف المنزل"),  # loui:cui/home-atkobject
    ("Allow animated text", "ให้ใช้ข้อความเคลื่อนไหวได้", "اسمح بالنص المتحرك"),  # loui:cui/optaccessibilitypage
    ("Select data range", "เลือกช่วงข้อมูล", "حدّد نطاق البيانات"),  # loui:chart/dlg_InsertErrorBars
    ("Value 1; value 2;... are arguments whose smallest number is to be determined.", "ค่า 1; ค่า 2;... คืออาร์กิวเมนต์ที่จะหาค่าตัวเลขที่น้อยที่สุด", "قيمة ١، قيمة ٢، ... هي معاملات أصغرها عددا هو الذي سيُحدّد."),  # loui:sc/SC_OPCODE_MIN_A
]  # fmt: skip
EN = [t[0] for t in TRIPLES]
TH = [t[1] for t in TRIPLES]
AR = [t[2] for t in TRIPLES]
SIDE = {"en": EN, "th": TH, "ar": AR}

DIMENSION = 32


def write_pair_model(folder: Path, seed: int = 0) -> str:
    """A static model folder in which the three sides of each triple have one vector; its spec."""
    from safetensors.numpy import save_file

    from lingualite.encoders.static import StaticEncoder
    from lingualite.text.segmentation import split_sentences
    from lingualite.tokenization import train_tokenizer

    folder.mkdir(parents=True, exist_ok=True)
    tokenizer = train_tokenizer(dict(SIDE), vocab_size=400, sample_size=len(TRIPLES) * 3)
    tokenizer.backend_tokenizer.save(str(folder / "tokenizer.json"))
    size = tokenizer.backend_tokenizer.get_vocab_size()
    # an identity table first: the encoder's own vectors are then each text's mean token counts
    save_file({"embeddings": np.eye(size, dtype=np.float32)}, str(folder / "model.safetensors"))
    texts, string_of = [], []
    for side in SIDE.values():
        for i, text in enumerate(side):
            pieces = split_sentences(text)
            for piece in [text, *pieces] if len(pieces) > 1 else [text]:
                texts.append(piece)
                string_of.append(i)
    counts = StaticEncoder(folder).encode(texts)
    targets = np.random.default_rng(seed).normal(size=(len(TRIPLES), DIMENSION))[string_of]
    table, *_ = np.linalg.lstsq(counts, targets, rcond=None)
    assert np.allclose(counts @ table, targets, atol=1e-3), "the table does not fit the strings"
    save_file({"embeddings": table.astype(np.float32)}, str(folder / "model.safetensors"))
    (folder / "config.json").write_text('{"normalize": true}\n', encoding="utf-8")
    return f"static:{folder}"
