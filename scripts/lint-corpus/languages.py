#!/usr/bin/env python3
"""Prints the instruction rules of the languages added in issue 43 (Russian,
Ukrainian, Polish, Italian, Dutch, Turkish, Arabic, Hebrew, Hindi, Korean,
Vietnamese, Indonesian, and since 2026-12-07 Swedish, Norwegian with Danish
and Czech) as lines of `lexicon::RULES`, their words folded as
the lint reads text (`read::fold_char`: lowered, a Cyrillic or Greek letter
drawn like a Latin one taken as that letter, the Latin accents of
`unaccent` dropped), so `игнорируй` is written the way it is read.

    python3 scripts/lint-corpus/languages.py > /tmp/rules.rs
"""

LOOKALIKE = {
    "а": "a", "с": "c", "ԁ": "d", "е": "e", "һ": "h", "і": "i", "ј": "j", "ӏ": "l",
    "о": "o", "ο": "o", "р": "p", "ρ": "p", "ԛ": "q", "ѕ": "s", "ԝ": "w", "х": "x",
    "у": "y", "ν": "v", "ι": "i",
}
UNACCENT = {}
for chars, base in [("àáâãäåā", "a"), ("çčć", "c"), ("èéêëēě", "e"), ("ìíîï", "i"), ("ñń", "n"),
                    ("òóôõöøō", "o"), ("ùúûüū", "u"), ("ýÿ", "y"), ("ß", "s"), ("œ", "o"),
                    ("š", "s"), ("ž", "z")]:
    for c in chars:
        UNACCENT[c] = base


def fold(word):
    out = []
    for c in word:
        if not c.isascii() and not c.islower():
            c = c.lower()[:1] or c
        c = LOOKALIKE.get(c, c)
        c = c.lower() if c.isascii() else c
        out.append(UNACCENT.get(c, c))
    return "".join(out)


def fold_pattern(p):
    steps = []
    for step in p.split(" "):
        if step.startswith("~"):
            steps.append(step)
            continue
        alts = []
        for alt in step.split("|"):
            alts.append("+".join(fold(w) for w in alt.split("+")))
        steps.append("|".join(alts))
    return " ".join(steps)


# family, gate, need, pattern. Written per language family; a `*` ends a
# stem (Slavic, Turkish and Korean words take endings).
RULES = {
    "Russian": [
        ("Guardrail", "Stated", "Unnegated", "удаля*|удали*|выполня*|выполни*|запуска*|запусти* ~5 без ~1 подтверждени*|разрешени*|согласи*|спрос*"),
        ("Override", "Stated", "Unnegated", "игнорируй*|игнорир*|забудь*|пренебрег*|не+обращай*|отбрось* ~4 предыдущ*|прежн*|прошл*|системн*|все|всех|ранее|исходн* ~3 инструкци*|указани*|правил*|команд*|директив*"),
        ("Override", "Stated", "Unnegated", "предыдущ*|прежн*|все ~2 инструкци*|указани*|правил* ~3 больше+не+действуют|недействительн*|отменен*|не+действуют"),
        ("Authority", "Stated", "Nothing", "системн* ~1 уведомлени*|распоряжени*"),
        ("Authority", "Stated", "Nothing", "прав*|привилеги*|полномочи* ~1 администратор*|root|суперпользовател*"),
        ("Guardrail", "Stated", "Nothing", "не ~1 спрашивай*|запрашивай*|проси* ~4 подтверждени*|разрешени*|согласи*"),
        ("Guardrail", "Stated", "Unnegated", "без ~1 подтверждени*|разрешени*|согласи*|проверк* ~4 удал*|выполн*|запуск*|отправ*"),
        ("Guardrail", "Stated", "Nothing", "отключи*|обойди*|пропусти*|игнорируй* ~3 проверк*|фильтр*|защит*|безопасност*|модераци*|ограничени*"),
        ("Exfiltration", "Stated", "Address", "отправ*|отсыла*|перешл*|пересыл*|присыла*|пришли*|вышли*|высыла*|загрузи*|переда*|скопируй*|выгрузи* ~6 переписк*|разговор*|истори*|сообщени*|ключ*|парол*|токен*|данн*|всё|все ~8 на|в|по"),
        ("Exfiltration", "Stated", "Unnegated", "скопируй*|добав*|встав*|помест*|перед* ~4 парол*|ключ*|токен*|переписк*|истори* ~6 в ~1 пол*|параметр*|аргумент*"),
        ("Concealment", "Stated", "Nothing", "не ~1 сообщай*|говори*|рассказывай*|упоминай*|показывай*|сообщайте|говорите ~3 пользовател*"),
        ("Concealment", "Stated", "Nothing", "скрой*|скрывай*|утаи* ~3 от ~1 пользовател*"),
        ("Preference", "Stated", "Nothing", "всегда ~2 используй*|выбирай*|вызывай* ~2 этот|только+этот ~1 инструмент ~4 вместо|даже|а+не"),
        ("Preference", "Stated", "Nothing", "не ~1 используй*|вызывай* ~3 други*|ины* ~1 инструмент*|сервер*"),
        ("Injection", "Stated", "Code", "перед|после ~2 кажд*|любой|всех ~1 команд* ~3 выполни*|запусти*|добавь*"),
        ("CrossTool", "Stated", "Nothing", "при ~1 вызов*|использовани* ~1 @id ~6 добавля*|добавь*|замени*|укажи*|ставь*|копи*"),
        ("Shadowing", "Stated", "Nothing", "други* ~1 mcp*|сервер* ~6 не ~1 используй*|игнорируй*"),
    ],
    "Ukrainian": [
        ("Guardrail", "Stated", "Unnegated", "видаля*|видали*|викону*|запуска* ~5 без ~1 підтвердженн*|дозвол*|згод*"),
        ("Override", "Stated", "Unnegated", "ігноруй*|забудь*|знехтуй* ~4 попередн*|усі|всі|системн*|колишн* ~3 інструкці*|вказівк*|правил*|команд*"),
        ("Guardrail", "Stated", "Nothing", "не ~1 питай*|запитуй*|проси* ~4 дозв*|підтвердженн*|згод*"),
        ("Guardrail", "Stated", "Unnegated", "без ~1 підтвердженн*|дозвол*|згод* ~4 видал*|викон*|запуск*"),
        ("Exfiltration", "Stated", "Address", "надішли*|надсила*|надсил*|відправ*|відсила*|перешли*|пересила*|завантаж*|вивантаж*|передай*|скопіюй* ~6 розмов*|листуванн*|історі*|ключ*|парол*|токен*|дан* ~8 на|до|в"),
        ("Exfiltration", "Stated", "Unnegated", "додай*|встав*|скопіюй*|передай* ~5 id_rsa|парол*|ключ*|токен*|вміст* ~6 у|в|до ~1 пол*|параметр*|аргумент*"),
        ("Concealment", "Stated", "Nothing", "не ~1 кажи*|повідомляй*|говори*|згадуй* ~3 користувач*"),
        ("Preference", "Stated", "Nothing", "завжди ~2 використовуй*|обирай* ~2 цей ~1 інструмент"),
    ],
    "Polish": [
        ("Guardrail", "Stated", "Unnegated", "usuwaj|usun|usuń|wykonuj|uruchamiaj ~5 bez ~1 pytania|potwierdzenia|zgody"),
        ("Override", "Stated", "Unnegated", "zignoruj|ignoruj|zapomnij|pomin ~4 wszystkie|poprzednie|wczesniejsze|systemowe|dotychczasowe ~3 instrukcj*|polecen*|zasad*|regul*|wytyczn*"),
        ("Guardrail", "Stated", "Nothing", "nie ~1 pytaj|proś|pros ~4 zgod*|potwierdzeni*|pozwoleni*"),
        ("Guardrail", "Stated", "Unnegated", "bez ~1 pytania|potwierdzenia|zgody ~4 usun*|wykonaj|uruchom"),
        ("Guardrail", "Stated", "Nothing", "wylacz|wyłącz|pomin|pomiń|obejdz|obejdź ~3 zabezpiecz*|filtr*|weryfikacj*|walidacj*|kontrol*|moderacj*"),
        ("Exfiltration", "Stated", "Address", "wyslij|wyślij|przeslij|prześlij|przekaz|przekaż|skopiuj ~6 rozmow*|histori*|czat*|hasl*|hasł*|klucz*|token*|dane ~8 na|do"),
        ("Exfiltration", "Stated", "Unnegated", "skopiuj|dodaj|wklej|wpisz|przekaz|przekaż ~4 hasl*|hasł*|klucz*|token*|histori*|rozmow*|zawartosc|zawartość ~6 do ~1 pola|parametr*|argument*"),
        ("Concealment", "Stated", "Nothing", "nie ~1 informuj|mow|mów|wspominaj|pokazuj|zdradzaj ~3 uzytkownik*|użytkownik*"),
        ("Preference", "Stated", "Nothing", "zawsze ~2 uzywaj|używaj|wybieraj ~2 tego ~1 narzedzia|narzędzia"),
        ("Preference", "Stated", "Nothing", "nie ~1 uzywaj|używaj ~3 innych ~1 narzedzi|narzędzi|serwer*"),
        ("Authority", "Stated", "Nothing", "komunikat|powiadomienie ~1 systemow*"),
        ("Authority", "Stated", "Nothing", "uprawnieniami|uprawnienia|prawami ~1 administratora|roota"),
        ("CrossTool", "Stated", "Nothing", "przy|podczas ~2 wywolani*|wywołani*|uzyci*|użyci* ~1 @id ~6 dodaj|zamien|zamień|ustaw"),
        ("Shadowing", "Stated", "Nothing", "inne ~1 serwery ~1 mcp ~6 nie ~1 uzywaj|używaj|ignoruj"),
    ],
    "Italian": [
        ("Guardrail", "Stated", "Unnegated", "elimina|cancella|esegui ~5 senza ~1 chiedere|conferma|permesso|autorizzazione"),
        ("Override", "Stated", "Unnegated", "ignora|dimentica|trascura|ignorate|dimenticate ~4 tutte|le|precedenti|istruzioni ~3 istruzioni|regole|indicazioni|direttive|precedenti|di+sistema"),
        ("Guardrail", "Stated", "Nothing", "non ~1 chiedere|chiedete|domandare ~4 conferma|permesso|autorizzazione|consenso"),
        ("Guardrail", "Stated", "Unnegated", "senza ~1 chiedere|conferma|permesso|autorizzazione ~4 elimina*|cancella*|esegui*"),
        ("Guardrail", "Stated", "Nothing", "disattiva|disabilita|salta|ignora|aggira ~3 controll*|filtr*|sicurezza|verific*|conferm*|moderazione|restrizion*"),
        ("Exfiltration", "Stated", "Address", "invia|inviate|manda|inoltra|carica|trasmetti|copia ~6 conversazion*|cronologia|chat|password|chiav*|token|dati|messaggi ~8 a|al|su|verso"),
        ("Exfiltration", "Stated", "Unnegated", "copia|aggiungi|inserisci|incolla|passa ~4 password|chiav*|token|cronologia|conversazion*|contenuto ~6 nel|nel+campo|nel+parametro|campo|parametro"),
        ("Concealment", "Stated", "Nothing", "non ~1 dire|dite|informare|menzionare|rivelare|mostrare ~3 all'utente|utente|agli+utenti"),
        ("Preference", "Stated", "Nothing", "usa|utilizza|scegli ~1 sempre ~2 questo ~1 strumento"),
        ("Preference", "Stated", "Nothing", "non ~1 usare|utilizzare ~3 altri ~1 strumenti|server"),
        ("Authority", "Stated", "Nothing", "avviso|notifica ~1 di ~1 sistema"),
        ("Authority", "Stated", "Nothing", "privilegi|diritti|permessi ~1 di ~1 amministratore|root"),
        ("CrossTool", "Stated", "Nothing", "quando|ogni+volta+che ~3 chiami|usi|invochi|si+usa|viene+chiamato ~1 @id ~6 aggiungi|sostituisci|imposta"),
        ("Shadowing", "Stated", "Nothing", "altri ~1 server ~1 mcp ~8 non ~1 usare|ignora"),
        ("Injection", "Stated", "Code", "prima|dopo ~1 di ~2 ogni|ciascun ~1 comando ~3 esegui|lancia|aggiungi"),
    ],
    "Dutch": [
        ("Guardrail", "Stated", "Unnegated", "verwijder|voer ~5 zonder ~1 toestemming|bevestiging|te+vragen"),
        ("Override", "Stated", "Unnegated", "negeer|vergeet ~4 alle|eerdere|vorige|voorgaande|systeem ~3 instructies|regels|opdrachten|aanwijzingen"),
        ("Guardrail", "Stated", "Nothing", "vraag ~3 geen|niet+om ~2 toestemming|bevestiging|goedkeuring"),
        ("Guardrail", "Stated", "Unnegated", "zonder ~1 toestemming|bevestiging|te+vragen ~4 verwijder*|uitvoer*|uit+te+voeren"),
        ("Guardrail", "Stated", "Nothing", "schakel|omzeil|sla ~3 beveiliging|controle*|filter*|verificatie|validatie|moderatie ~3 uit|over"),
        ("Exfiltration", "Stated", "Address", "stuur|verstuur|upload|kopieer|deel ~6 gesprek*|chatgeschiedenis|geschiedenis|wachtwoord*|sleutel*|token*|gegevens|berichten ~8 naar|aan"),
        ("Exfiltration", "Stated", "Unnegated", "kopieer|voeg|plak|zet ~4 wachtwoord*|sleutel*|token*|geschiedenis|gesprek*|inhoud ~6 in ~1 het ~1 veld|parameter|argument"),
        ("Concealment", "Stated", "Nothing", "vertel|zeg|meld|toon ~2 de|het ~1 gebruiker* ~1 niet"),
        ("Concealment", "Stated", "Nothing", "niet ~3 aan ~1 de ~1 gebruiker ~2 vertellen|melden|laten+weten"),
        ("Preference", "Stated", "Nothing", "gebruik ~1 altijd ~2 deze ~1 tool"),
        ("Preference", "Stated", "Nothing", "gebruik ~2 geen ~1 andere ~1 tools|servers"),
        ("Authority", "Stated", "Nothing", "systeemmelding|systeembericht|beheerdersrechten|adminrechten"),
        ("CrossTool", "Stated", "Nothing", "bij ~1 elke ~1 aanroep ~1 van ~1 @id ~8 voeg|vervang|zet"),
    ],
    "Turkish": [
        ("Override", "Stated", "Nothing", "önceki|onceki|tüm|tum|bütün|butun|sistem ~3 talimat*|kural*|komut*|yönerge*|yonerge* ~3 yok+say|unut|görmezden+gel|gormezden+gel|dikkate+alma|yoksay"),
        ("Guardrail", "Stated", "Nothing", "kullanıcıdan|kullanicidan ~3 onay|izin ~1 isteme|alma|sorma"),
        ("Guardrail", "Stated", "Unnegated", "onay*|izin* ~2 istemeden|almadan|sormadan"),
        ("Guardrail", "Stated", "Nothing", "güvenlik|guvenlik|filtre*|doğrulama|dogrulama|kontrol* ~3 devre+dışı+bırak|devre+disi+birak|atla|kapat|yok+say"),
        ("Exfiltration", "Stated", "Address", "konuşma*|konusma*|sohbet*|geçmiş*|gecmis*|parola*|şifre*|sifre*|anahtar*|token*|veri* ~8 gönder|gonder|yükle|yukle|ilet|aktar|kopyala"),
        ("Exfiltration", "Stated", "Unnegated", "api ~1 anahtar* ~6 alan*|parametre* ~2 ekle|yaz|koy"),
        ("Exfiltration", "Stated", "Unnegated", "parola*|şifre*|sifre*|anahtar*|token*|sohbet*|konuşma*|içeriğ*|icerig* ~6 alan*|parametre* ~2 ekle|yaz|koy|kopyala"),
        ("Concealment", "Stated", "Nothing", "kullanıcıya|kullaniciya ~6 söyleme|soyleme|bahsetme|gösterme|gosterme|bildirme|anlatma"),
        ("Preference", "Stated", "Nothing", "her+zaman ~2 bu ~1 aracı|araci ~1 kullan|seç|sec"),
        ("Preference", "Stated", "Nothing", "başka|baska|diğer|diger ~1 araç*|arac*|sunucu* ~3 kullanma"),
        ("Authority", "Stated", "Nothing", "sistem ~1 bildirimi|uyarısı|uyarisi"),
        ("Authority", "Stated", "Nothing", "yönetici|yonetici|root ~1 yetki*|hak*"),
        ("Injection", "Stated", "Code", "her ~1 komut* ~3 önce|once|sonra ~4 çalıştır|calistir|ekle"),
    ],
    "Arabic": [
        ("Override", "Stated", "Unnegated", "تجاهل|انس|اهمل|أهمل ~4 التعليمات|الأوامر|الاوامر|القواعد|الإرشادات|التوجيهات"),
        ("Guardrail", "Stated", "Nothing", "لا ~1 تطلب|تسأل ~3 موافقة|إذن|اذن|تأكيد|تاكيد"),
        ("Guardrail", "Stated", "Unnegated", "دون|بدون ~1 موافقة|إذن|اذن|تأكيد|تاكيد|سؤال"),
        ("Exfiltration", "Stated", "Address", "أرسل|ارسل|انقل|حمّل|حمل|شارك|انسخ ~6 المحادثة|محتوى|السجل|كلمات|كلمة|المفاتيح|مفتاح|الرموز|البيانات|الرسائل ~10 إلى|الى|على"),
        ("Concealment", "Stated", "Nothing", "لا ~1 تخبر|تبلغ|تذكر|تظهر|تعلم ~2 المستخدم"),
        ("Concealment", "Stated", "Nothing", "دون|بدون ~1 إخبار|اخبار|إعلام|اعلام|إبلاغ|ابلاغ|علم ~2 المستخدم"),
        ("Exfiltration", "Stated", "Address", "كلمات|كلمة|المحادثة|السجل|المفاتيح|الرموز|البيانات|الرسائل ~8 وأرسلها|أرسلها|وارسلها|ارسلها|وأرسله|أرسله|وارسله|وأرسلهم|وانقلها|وانسخها ~3 إلى|الى"),
        ("Preference", "Stated", "Nothing", "استخدم|اختر ~1 دائما|دائمًا|دائماً ~2 هذه ~1 الأداة|الاداة"),
        ("Authority", "Stated", "Nothing", "إشعار|اشعار|تنبيه ~1 النظام"),
        ("Authority", "Stated", "Nothing", "صلاحيات|امتيازات ~1 المسؤول|المدير|الجذر"),
    ],
    "Hebrew": [
        ("Override", "Stated", "Unnegated", "התעלם|שכח|התעלמו ~3 מכל|מההוראות|מהכללים|מהנחיות ~3 הקודמות|ההוראות|הכללים|המערכת"),
        ("Guardrail", "Stated", "Nothing", "אל ~1 תבקש|תשאל ~3 אישור|רשות|הסכמה"),
        ("Guardrail", "Stated", "Unnegated", "ללא|בלי ~1 אישור|רשות|הסכמה"),
        ("Exfiltration", "Stated", "Address", "שלח|העבר|העלה|העתק|שתף ~6 השיחה|היסטוריית|השיחות|סיסמאות|סיסמה|מפתחות|מפתח|הנתונים|ההודעות ~10 אל|ל"),
        ("Concealment", "Stated", "Nothing", "אל ~1 תספר|תגיד|תאמר|תציג|תדווח ~2 למשתמש"),
        ("Preference", "Stated", "Nothing", "השתמש ~1 תמיד ~2 בכלי"),
        ("Authority", "Stated", "Nothing", "הודעת ~1 מערכת"),
        ("Authority", "Stated", "Nothing", "הרשאות ~1 מנהל|אדמין|root"),
    ],
    "Hindi": [
        ("Override", "Stated", "Unnegated", "पिछले|सभी|पूर्व|सिस्टम ~3 निर्देशों|निर्देश|नियमों|नियम|आदेशों ~3 को ~1 अनदेखा|नज़रअंदाज़|नजरअंदाज|भूल"),
        ("Guardrail", "Stated", "Nothing", "अनुमति|पुष्टि|सहमति ~3 न|मत|नहीं|बिना"),
        ("Guardrail", "Stated", "Unnegated", "बिना ~2 अनुमति|पुष्टि|पूछे|सहमति"),
        ("Exfiltration", "Stated", "Address", "बातचीत|इतिहास|पासवर्ड|कुंजी|टोकन|डेटा|संदेश ~10 भेजें|भेजो|भेज|अपलोड|साझा"),
        ("Concealment", "Stated", "Nothing", "उपयोगकर्ता ~2 को ~4 न|मत ~1 बताएं|बताओ|बताना|दिखाएं"),
        ("Preference", "Stated", "Nothing", "हमेशा ~2 इस ~1 टूल ~2 का ~1 उपयोग|इस्तेमाल"),
        ("Authority", "Stated", "Nothing", "सिस्टम ~1 सूचना"),
        ("Authority", "Stated", "Nothing", "व्यवस्थापक|एडमिन ~1 अधिकार*"),
    ],
    "Korean": [
        ("Override", "Stated", "Unnegated", "이전의|이전|기존의|기존|모든|시스템 ~3 지시*|지침*|규칙*|명령* ~3 무시*|잊*"),
        ("Guardrail", "Stated", "Nothing", "확인*|허락*|허가*|동의*|승인* ~3 묻지|받지|구하지|요청하지 ~1 말고|마세요|말"),
        ("Guardrail", "Stated", "Unnegated", "확인|허락|허가|동의|승인 ~1 없이"),
        ("Exfiltration", "Stated", "Address", "대화*|기록*|비밀번호*|키를|키*|토큰*|데이터*|메시지* ~10 보내*|전송*|업로드*|공유*|복사*"),
        ("Exfiltration", "Stated", "Unnegated", "비밀번호*|키*|토큰*|대화*|내용* ~6 매개변수*|필드*|인자* ~2 넣*|전달*|추가*"),
        ("Concealment", "Stated", "Nothing", "사용자에게 ~6 알리지|말하지|보여주지|언급하지 ~1 마세요|말고|말"),
        ("Preference", "Stated", "Nothing", "항상 ~2 이 ~1 도구*"),
        ("Preference", "Stated", "Nothing", "다른 ~1 도구* ~3 사용하지|쓰지 ~1 마세요|말"),
        ("Authority", "Stated", "Nothing", "시스템 ~1 알림|공지|통지"),
        ("Authority", "Stated", "Nothing", "관리자 ~1 권한*"),
    ],
    "Vietnamese": [
        ("Guardrail", "Stated", "Unnegated", "xóa|chạy ~5 mà ~1 không ~1 hỏi|cần+hỏi"),
        ("Override", "Stated", "Unnegated", "bỏ+qua|phớt+lờ|quên ~4 mọi|tất+cả|các ~2 hướng+dẫn|chỉ+dẫn|quy+tắc|lệnh|chỉ+thị"),
        ("Guardrail", "Stated", "Nothing", "không ~1 cần ~1 hỏi|xin ~3 ý+kiến|phép|xác+nhận|đồng+ý"),
        ("Guardrail", "Stated", "Nothing", "không ~1 hỏi|xin ~3 ý+kiến|phép|xác+nhận|đồng+ý ~3 người+dùng"),
        ("Exfiltration", "Stated", "Address", "gửi|chuyển|tải+lên|sao+chép|chia+sẻ ~6 cuộc+trò+chuyện|lịch+sử|mật+khẩu|khóa|mã|token|dữ+liệu|tin+nhắn ~10 đến|tới|lên|vào"),
        ("Exfiltration", "Stated", "Unnegated", "gửi|thêm|chèn|đưa|sao+chép ~6 nội+dung|mật+khẩu|khóa|token ~6 tham+số|trường"),
        ("Concealment", "Stated", "Nothing", "không ~1 nói|cho+biết|thông+báo|tiết+lộ ~2 cho|với ~1 người+dùng"),
        ("Preference", "Stated", "Nothing", "luôn ~2 dùng|sử+dụng|chọn ~2 công+cụ ~1 này"),
        ("Authority", "Stated", "Nothing", "thông+báo ~1 hệ+thống"),
        ("Authority", "Stated", "Nothing", "quyền ~1 quản+trị|admin|root"),
    ],
    "Indonesian": [
        ("Guardrail", "Stated", "Unnegated", "hapus|jalankan ~5 tanpa ~1 izin|konfirmasi|persetujuan|bertanya"),
        ("Override", "Stated", "Unnegated", "abaikan|lupakan ~4 semua|seluruh|sebelumnya|instruksi ~3 instruksi|perintah|aturan|petunjuk|arahan|sebelumnya"),
        ("Guardrail", "Stated", "Nothing", "jangan ~1 minta|meminta|tanya|menanyakan ~3 izin|konfirmasi|persetujuan"),
        ("Guardrail", "Stated", "Unnegated", "tanpa ~1 izin|konfirmasi|persetujuan|bertanya ~4 hapus|menghapus|jalankan"),
        ("Exfiltration", "Stated", "Address", "kirim|kirimkan|unggah|teruskan|salin|bagikan ~6 percakapan|riwayat|kata+sandi|sandi|kunci|token|data|pesan ~8 ke|kepada"),
        ("Exfiltration", "Stated", "Unnegated", "salin|tambahkan|masukkan|tempel ~4 kata+sandi|sandi|kunci|token|riwayat|percakapan|isi ~6 ke ~1 kolom|bidang|parameter|argumen"),
        ("Concealment", "Stated", "Nothing", "jangan ~1 beri+tahu|beritahu|katakan|sebutkan|tunjukkan|memberi+tahu ~3 pengguna"),
        ("Preference", "Stated", "Nothing", "selalu ~2 gunakan|pakai|pilih ~2 alat ~1 ini"),
        ("Authority", "Stated", "Nothing", "pemberitahuan ~1 sistem"),
        ("Authority", "Stated", "Nothing", "hak ~1 administrator|admin|root"),
    ],
    # Swedish, Norwegian, Danish and Czech are read mostly by the frames
    # (`frame::NO_CONSENT`, `DROP`, `UNTOLD_ANYWHERE`); these are what they lack.
    "Swedish": [
        ("Guardrail", "Stated", "Nothing", "fråga|be ~1 inte ~4 bekräftelse|lov|tillstånd|godkännande|samtycke"),
        ("Preference", "Stated", "Nothing", "använd ~1 alltid ~2 det+här|detta ~1 verktyg*"),
    ],
    "Norwegian and Danish": [
        ("Preference", "Stated", "Nothing", "bruk|brug ~1 alltid|altid ~2 dette ~1 verktøy*|værktøj*"),
    ],
    "Czech": [
        ("Guardrail", "Stated", "Nothing", "neptej*|nežádej*|nevyžaduj* ~4 potvrzení|souhlas*|svolení|povolení"),
        ("Preference", "Stated", "Nothing", "vždy ~2 použ*|volej*|vyber* ~2 tento ~1 nástroj"),
    ],
}


def main():
    for lang, rules in RULES.items():
        print(f"    // ---- {lang}.")
        for fam, gate, need, pattern in rules:
            print(f'    (Family::{fam}, Gate::{gate}, Need::{need}, "{fold_pattern(pattern)}"),')


if __name__ == "__main__":
    main()
