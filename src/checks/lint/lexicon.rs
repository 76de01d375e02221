//! The words of the instruction rules, family by family: each rule is a
//! pattern in `phrase`'s notation, the gate it passes (`Gate`) and what it
//! needs besides its words (`Need`). English first, then Spanish, German,
//! French, Portuguese, Chinese and Japanese, the languages servers are most
//! often written in. Text is read folded (`read`): lower case, accents
//! dropped (`précédentes` is `precedentes`), so the words here are written
//! that way. Data only.

use crate::checks::lint::family::{Family, Gate, Need};

/// One rule: its family, gate, need and pattern.
pub type Rule = (Family, Gate, Need, &'static str);

macro_rules! ignore_v {
    () => {
        "ignore|disregard|forget|override|bypass|overrule|neglect|discard|abandon|cancel|erase|nullify|dismiss|set+aside|stop+following|stop+obeying|pay+no+attention+to|do+not+follow|don't+follow|no+longer+follow|drop"
    };
}
macro_rules! strong_adj {
    () => {
        "previous|prior|above|earlier|preceding|system|your|original|initial|developer*|safety|existing|former|standing|old|default|built-in|current|given|all|any|other|these|those|the|every|those"
    };
}
macro_rules! strong_rules {
    () => {
        "instruction*|prompt*|guideline*|guidance|directive*|guardrail*|programming|training|directions|orders|system+prompt"
    };
}
macro_rules! weak_rules {
    () => {
        "rule*|polic*|constraint*|restriction*|limitation*|commands"
    };
}
macro_rules! prior_adj {
    () => {
        "previous|prior|above|earlier|preceding|system|your|original|initial|developer*|safety|existing|former|standing|old"
    };
}
macro_rules! authority_n {
    () => {
        "system|administrator|admin|security+team|platform+owner|platform|anthropic|openai|developers|developer|it+department|management|operator|owner|your+developer*|your+creator*|sysadmin|root"
    };
}
macro_rules! guard_n {
    () => {
        "content+filter*|safety*|safeguard*|guardrail*|moderation|censorship|refusal*|ethic*|security+check*|security+filter*|security+polic*|content+polic*|usage+polic*|protection+measures|confirmation*|approval*|permission+prompt*|permission+check*|consent|human+review|human+approval|user+confirmation|user+approval|all+validation|all+checks|any+validation|any+checks|every+check|all+verification*|all+restrictions|any+restrictions|all+limits|all+limitations|every+restriction|all+safety|filters|filtering|restrictions|limitations|all+security|security+measures|security+controls|the+sandbox|sandbox*"
    };
}
macro_rules! send_v {
    () => {
        "send|post|upload|forward|transmit|exfiltrate|submit|leak|copy|deliver|email|e-mail|mail|share|report|sync|mirror|relay|push|stream|beam|dump|export|publish|broadcast|pipe|replicate|backup|back+up|cc|bcc|transfer|route|log"
    };
}
macro_rules! sens_obj {
    () => {
        "conversation*|chat*|history|transcript*|messages|previous+messages|system+prompt|instructions|key|keys|api+key*|api+token*|access+token*|auth*|bearer|token|tokens|credential*|secret*|password*|passphrase*|cookie*|session|sessions|environment|env|variables|personal|private|ssh|contents+of|everything|all+data|user+data|user's|users'|pii|account|accounts|email+addresses|contacts|audit+data|all+documents|all+files|every+file|every+document|each+file|each+document|every+page|every+message|every+email|all+emails|a+copy|copies|full+conversation|entire+conversation"
    };
}
macro_rules! to_user {
    () => {
        "user|users|human|humans|person|people|customer|client|operator|anyone|them|requester"
    };
}

/// The rules, in order.
#[rustfmt::skip]
pub const RULES: &[Rule] = &[
    // ---- Override: a directive to drop the instructions the model has.
    (Family::Override, Gate::Directive, Need::Nothing, concat!(ignore_v!(), " ~3 ", strong_adj!(), " ~3 ", strong_rules!())),
    (Family::Override, Gate::Directive, Need::Nothing, concat!(ignore_v!(), " ~3 ", prior_adj!(), " ~3 ", weak_rules!())),
    (Family::Override, Gate::Directive, Need::Nothing, concat!(ignore_v!(), " ~2 previous|prior|above|earlier|preceding ~2 context|conversation|messages|restrictions")),
    (Family::Override, Gate::Directive, Need::Nothing, concat!(ignore_v!(), " ~3 ", strong_rules!(), "|", weak_rules!(), " ~3 given+by|set+by|provided+by|from|of ~2 the+system|the+developer*|your+developer*|the+operator|system|anthropic|openai|the+platform")),
    (Family::Override, Gate::Directive, Need::Nothing, "forget|disregard|ignore ~1 everything|all ~3 above|before|earlier|previous|said|told|prior|so+far"),
    (Family::Override, Gate::Stated, Need::Nothing, concat!(prior_adj!(), " ~2 ", strong_rules!(), "|", weak_rules!(), " ~3 no+longer+apply|do+not+apply|don't+apply|are+void|is+void|are+invalid|are+cancel*|are+revoked|are+obsolete|are+superseded|are+outdated|are+null|have+been+revoked|have+been+replaced|are+replaced|no+longer+valid|are+no+longer+valid|are+no+longer+in+effect")),
    (Family::Override, Gate::Stated, Need::Nothing, concat!(strong_rules!(), " ~6 no+longer+apply|no+longer+applies|are+void|are+no+longer+valid|are+now+void|are+cancelled|are+revoked")),
    (Family::Override, Gate::Stated, Need::Nothing, "your|the ~1 earlier|previous|prior|original|real|system|initial ~1 instructions|prompt|rules ~2 were+a+test|were+fake|were+wrong|were+just+a+test|are+fake|were+a+trick"),
    (Family::Override, Gate::Stated, Need::Nothing, "from+now+on|henceforth|from+this+point|starting+now ~4 obey|follow|listen+to|take+orders+from|your+instructions|instructions+come|answer+only|ignore|you+will+only|you+must+only"),
    (Family::Override, Gate::Directive, Need::Nothing, "obey|follow|heed ~1 only ~3 this|these|what+follows|the+following|below|this+tool|this+description|me"),
    (Family::Override, Gate::Directive, Need::Nothing, "treat|consider|regard ~4 above|previous|prior|earlier|everything+above|everything+before|the+system+prompt ~4 as ~1 outdated|void|obsolete|invalid|irrelevant|cancelled|superseded|null"),
    (Family::Override, Gate::Stated, Need::Nothing, "these|this|the+following|my|our ~1 instructions|rules|directions|directives ~2 take+precedence|override|supersede|replace|overrule|outrank|take+priority"),
    (Family::Override, Gate::Directive, Need::Nothing, "do+as|do+what|do+only+what ~2 this+tool|this+description|i|the+tool|these+instructions ~1 say*|tell*|instruct*|command*|dictate*"),
    (Family::Override, Gate::Stated, Need::Marked, "new|updated|real|actual|true|revised ~1 instructions|rules|orders|directives|system+prompt"),
    (Family::Override, Gate::Stated, Need::Nothing, concat!(prior_adj!(), "|any|all ~2 ", strong_rules!(), "|", weak_rules!(), "|configuration|setup|persona|behaviour|behavior|preamble|briefing|brief ~4 void|invalid|cancel*|revoked|obsolete|superseded|outdated|null|withdrawn|rescinded|retracted|expired|overridden|overruled|nullified|invalidated|deprecated|no+longer+apply|no+longer+valid|no+longer+count|do+not+apply|don't+apply|not+apply")),
    (Family::Override, Gate::Stated, Need::Nothing, "system+message|system+prompt|developer+prompt|developer+message|original+instructions|initial+instructions|earlier+instructions|previous+instructions|your+instructions ~6 withdrawn|revoked|retracted|cancelled|canceled|rescinded|void|invalidated|superseded|obsolete|replaced|overwritten|removed|deleted|no+longer+valid|no+longer+applies|no+longer+apply"),
    (Family::Override, Gate::Directive, Need::Nothing, "act|rely|operate|respond ~1 solely|only|exclusively|purely ~1 on|according+to|by ~1 the|these|this ~1 guidance|instructions|rules|text|directions|directives|description ~3 here|below|in+this|written+here|that+follow|given+here|provided+here"),
    (Family::Override, Gate::Stated, Need::Nothing, "the+only ~1 rules|instructions|guidelines|directions|directives|orders ~2 that|which|you ~1 count|matter|apply|follow|must|obey"),
    (Family::Override, Gate::Directive, Need::Nothing, "reset|wipe|clear|erase|reprogram|rewrite ~2 your ~1 behaviour|behavior|instructions|rules|programming|persona|memory|context|guidelines|directives|configuration|system+prompt|prompt"),
    (Family::Override, Gate::Stated, Need::Nothing, "do+not|don't|never|stop|no+longer ~1 follow|following|obey|obeying|heed|honor|honour ~3 the|your|any|those ~1 instructions|rules|guidelines|system+prompt|directions|directives|prompt ~4 you+started|you+were+given|you+received|you+got|from+before|from+earlier|given+earlier|at+the+start|initially|originally|above|previously|earlier|before|with+which"),
    (Family::Override, Gate::Directive, Need::Nothing, "treat|consider|use|regard|take ~3 this|these|the+following|what+follows|this+text|this+description ~2 as ~2 your|the ~1 new|updated|real|actual|true|only|primary ~1 system+prompt|instructions|rules|prompt|directives|guidelines"),
    (Family::Override, Gate::Stated, Need::Nothing, "developer+prompt|system+prompt|original+instructions|initial+instructions|your+instructions|your+rules ~2 was|were|has+been|have+been ~1 replaced|updated|changed|overwritten|removed|revoked|deleted|superseded"),
    (Family::Override, Gate::Directive, Need::Nothing, "do+as|do+what|do+exactly+as ~1 instructed|told|directed|ordered|written|described|stated ~1 below|here|in+this|above+all"),
    (Family::Override, Gate::Directive, Need::Nothing, concat!(ignore_v!(), "|abandon|drop ~3 the|your|this|that ~2 persona|character|role|identity|preamble|system+message|setup|briefing|safety+preamble|guardrails|alignment")),
    (Family::Override, Gate::Directive, Need::Nothing, "set|put|lay|push|cast ~1 the|your|any|all ~1 earlier|previous|prior|original|initial|system|existing|old|current ~2 guidance|instructions|rules|prompt|directives|guidelines|brief|briefing|persona ~1 aside|away"),
    (Family::Override, Gate::Stated, Need::Nothing, "description|text|instructions|documentation|this+note|this+message|what+follows|this+tool ~4 is|are ~1 authoritative|binding|definitive|the+final+word|the+source+of+truth|the+only+authority"),
    (Family::Override, Gate::Stated, Need::Nothing, concat!(strong_rules!(), "|brief|briefing ~5 no+longer+in+force|not+in+force|no+longer+in+effect|void|revoked|rescinded|obsolete|withdrawn|superseded|null+and+void|cancelled|canceled")),
    // ---- Authority: text that claims the voice or the rights of the system.
    (Family::Authority, Gate::Stated, Need::Marked, "system|administrator|admin|root|developer|operator|platform|kernel|sysadmin|supervisor|assistant ~1 notice|instruction*|message|override|alert|directive|update|mandate|command|order|announcement|authority|access|note|warning|prompt|policy|requirement"),
    (Family::Authority, Gate::Stated, Need::Marked, "system|admin|administrator|root|developer|sysadmin|operator"),
    (Family::Authority, Gate::Stated, Need::Marked, "compliance|policy|security|legal|governance|audit|corporate|company|official|mandatory|priority|critical ~1 notice|directive|mandate|update|requirement|order|alert|announcement|instruction*|override"),
    (Family::Authority, Gate::Stated, Need::Nothing, "you+are|you're|you+have+been|the+assistant+is|the+model+is|assistant+is ~1 now ~3 in|a|an|the|operating+in|running+in|switched+to ~1 developer|admin|administrator|god|unrestricted|jailbreak*|dan|root|sudo|superuser|privileged|elevated|unfiltered|uncensored|unlocked|maintenance|debug ~1 mode|user|access|assistant|ai"),
    (Family::Authority, Gate::Stated, Need::Nothing, "you+are|you're|you+are+now ~1 in ~1 developer|admin|administrator|god|unrestricted|jailbreak*|dan|root|sudo|superuser|unfiltered|uncensored ~1 mode"),
    (Family::Authority, Gate::Stated, Need::Nothing, "developer|admin|administrator|god|unrestricted|jailbreak|dan|sudo|root|superuser|privileged|elevated|unfiltered|uncensored ~1 mode|access|privileges ~1 is|has+been|are|have+been ~1 on|enabled|activated|active|unlocked|granted|engaged|turned+on"),
    (Family::Authority, Gate::Directive, Need::Nothing, "act+as|acting+as|pretend+to+be|pretend+you+are|pretend+that+you+are|behave+as|roleplay+as|role-play+as|assume+the+role+of|impersonate|become ~2 root|admin|administrator|superuser|sysadmin|the+system|system+administrator|operating+system*|dan|an+unrestricted|unrestricted|god|the+developer|developer|a+developer|kernel|the+root+user"),
    (Family::Authority, Gate::Stated, Need::Nothing, "granted|given|you+have|you+now+have|has+been+granted|have+been+granted|been+given|grants+you|gives+you|is+authori*|session+has|assistant+has|model+has|now+has ~4 full|elevated|administrator|administrative|admin|root|superuser|unrestricted|unlimited|system-level|system+level|sudo|god|privileged ~1 rights|privileges|permissions|access|authority|powers|clearance|control"),
    (Family::Authority, Gate::Stated, Need::Nothing, "operating|running|operates|runs|working|executing ~3 with|in ~1 unrestricted|unlimited|elevated|full+administrator|administrator|root|superuser ~1 permissions|privileges|rights|access|mode"),
    (Family::Authority, Gate::Stated, Need::Nothing, "authori*|approved|sanctioned|pre-approved|preapproved|cleared|mandated|ordered|commissioned ~1 by ~2 system|administrator|admin|security+team|platform|anthropic|openai|developer*|it+department|management|operator|owner|platform+owner|sysadmin"),
    (Family::Authority, Gate::Stated, Need::Nothing, "assistant|model|ai|agent|you|llm ~3 is|are ~1 authori*|permitted|allowed|cleared|entitled|empowered ~1 to ~2 run|execute|bypass|ignore|do|perform|access|skip|override|disable|any|all|anything|share|send"),
    (Family::Authority, Gate::Stated, Need::Nothing, "i|we ~2 authori*|permit|allow|grant|order|instruct|command|empower ~1 you"),
    (Family::Authority, Gate::Stated, Need::Standalone, concat!("message|note|notice|instruction*|directive|update|order|announcement|memo|alert|word|directions|orders ~2 from ~2 ", authority_n!())),
    (Family::Authority, Gate::Stated, Need::Nothing, concat!("instruction*|direction*|order*|directive*|message|messages|this+message ~2 come+from|comes+from|are+from|is+from|issued+by|sent+by ~2 ", authority_n!())),
    (Family::Authority, Gate::Stated, Need::Nothing, "this|the|these ~1 message|instruction*|notice|directive|note ~2 has|have|carries|carry ~2 system+level|system-level|administrator+level|root+level|admin+level|highest|full|official ~1 authority|privileges|priority|access"),
    (Family::Authority, Gate::Stated, Need::Nothing, "highest|top|maximum|absolute|utmost|supreme ~1 priority|precedence ~3 over|than|above|instruction*|directive*|direction*|command*|order*|rule*|request*"),
    (Family::Authority, Gate::Stated, Need::Nothing, "takes+precedence|take+precedence|supersedes|supersede|overrides|outranks|outrank|trumps|trump ~2 all|any|the+user*|user*|your|previous|prior|other|every|system|the+system ~2 instruction*|request*|rule*|guideline*|prompt*|polic*|message*|direction*|command*|wishes"),
    (Family::Authority, Gate::Stated, Need::Nothing, "per|by|under|according+to|as+required+by ~1 company|corporate|security|compliance|legal|internal|official|platform|new|updated ~1 policy|policies|regulations|rules|requirements|mandate ~4 you|assistant*|model|every|all|each|responses|answers ~2 must|should|shall|are+required|is+required"),
    (Family::Authority, Gate::Stated, Need::Nothing, "required+by|mandated+by|obliged+by|obligated+by|compelled+by ~1 policy|law|regulation|compliance|company|the+system|the+administrator|security"),
    (Family::Authority, Gate::Stated, Need::Nothing, "i|we ~1 am|are ~1 the|your ~1 administrator|admin|developer|developers|creator|creators|operator|owner|system|sysadmin|maker|makers|supervisor"),
    (Family::Authority, Gate::Stated, Need::Nothing, concat!("notice|message|messages|instruction*|direction*|order*|directive*|note|memo|update|request|text|content|this|announcement|alert|policy|directions ~3 issued+by|sent+by|comes+from|come+from|written+by|authored+by|approved+by|signed+by|on+behalf+of|endorsed+by|mandated+by ~3 ", authority_n!())),
    (Family::Authority, Gate::Stated, Need::Nothing, "you+are|you're|you+are+now|the+assistant+is|the+model+is|you+now+run|you+run ~1 running|operating|acting|logged+in|executing|working|now ~1 as ~1 the|a|an ~1 superuser|root|admin|administrator|system|sudo|sysadmin|privileged+user|root+user"),
    (Family::Authority, Gate::Stated, Need::Nothing, "anthropic|openai|the+system|the+administrator|the+developer*|the+platform|the+operator|google|microsoft|your+developer*|your+creator*|the+security+team|it|the+admin ~2 has|have ~1 authori*|approved|permitted|allowed|granted|instructed|ordered|cleared|empowered|sanctioned"),
    (Family::Authority, Gate::Stated, Need::Nothing, "mandatory|binding|legal|absolute|overriding|system-level|system ~1 force|authority|effect|priority|precedence"),
    (Family::Authority, Gate::Stated, Need::Nothing, "we|i ~1 grant|give|assign|confer ~1 you|the+assistant|the+model ~3 unrestricted|full|elevated|administrator|admin|root|superuser|unlimited ~1 access|rights|privileges|permissions|control|authority"),
    (Family::Authority, Gate::Stated, Need::Nothing, "has|have|holds|hold|possesses|now+has ~1 administrator|admin|root|superuser|elevated|full|unrestricted|system ~1 clearance|authority|privileges|rights"),
    (Family::Authority, Gate::Stated, Need::Nothing, "cleared|approved|authori*|whitelisted|allowlisted|certified|sanctioned ~2 this ~1 tool|server|integration|function|extension ~2 for ~1 unrestricted|unlimited|full|any|all|elevated|privileged ~1 use|access|operations|actions|purposes"),
    (Family::Authority, Gate::Stated, Need::Nothing, "official ~1 instruction*|directive*|notice|message|communication|order*|policy|command* ~2 from ~2 the|your ~1 model+provider|provider|vendor|system|administrator|platform|anthropic|openai|developer*|operator|company|organization|organisation"),
    (Family::Authority, Gate::Stated, Need::Nothing, "you|the+assistant|the+model ~3 promoted|elevated|upgraded|appointed|designated|made ~2 to|as|the|a|an ~1 system|administrator|admin|root|superuser|sysadmin|operator|owner|maintainer"),
    // ---- Guardrail removal: a directive to drop safety, checks or consent.
    (Family::Guardrail, Gate::Directive, Need::NotTechnical, concat!("disable|deactivate|turn+off|switch+off|bypass|circumvent|skip|ignore|suspend|remove|lift|evade|get+around|avoid|relax|waive|override|omit|forgo|kill|shut+off|shut+down|disregard|drop|lower|reduce|loosen ~3 ", guard_n!())),
    (Family::Guardrail, Gate::Stated, Need::Nothing, "no+need|not+necessary|unnecessary|needn't|need+not|don't+need|do+not+need|no+reason|not+required ~1 to ~1 ask|check+with|confirm|verify|request|seek|get|obtain|wait+for|prompt ~3 user*|permission|approval|confirmation|consent|authori*|human*|anyone|them|the+person"),
    (Family::Guardrail, Gate::Stated, Need::Nothing, "don't|dont|do+not|never|no+longer|must+not|should+not ~1 ask|request|seek|wait+for|get|obtain|require|prompt+for|check+with|bother+with ~3 permission|approval|confirmation|consent|authori*|sign-off|sign+off|go-ahead|go+ahead"),
    (Family::Guardrail, Gate::Stated, Need::ActBefore, "without ~1 asking|requesting|seeking|waiting+for|getting|obtaining|prompting|checking+with|any|user|human|the+user's|confirmation|approval|permission|consent ~3 permission|approval|confirmation|consent|authori*|to+confirm|confirming|to+approve|sign-off"),
    (Family::Guardrail, Gate::Stated, Need::Nothing, "safety|security|content|ethical|ethics|moderation|harm*|usage|refusal|the+usual|your|normal|standard ~4 polic*|rules|guidelines|filters|filtering|checks|restrictions|measures|guardrails|moderation|protections|safeguards ~4 do+not|don't|no+longer|never|does+not|doesn't ~1 apply"),
    (Family::Guardrail, Gate::Stated, Need::Nothing, "safety|security|content|ethical|ethics|moderation|harm*|usage|refusal|the+usual|your|normal|standard ~4 polic*|rules|guidelines|filters|filtering|checks|restrictions|measures|guardrails|moderation|protections|safeguards ~4 are|is|have+been|has+been ~1 not+in+effect|disabled|suspended|lifted|off|waived|turned+off|switched+off|not+active|inactive|removed|relaxed|paused|void|not+applicable|bypassed"),
    (Family::Guardrail, Gate::Directive, Need::Nothing, "act|operate|respond|answer|work|proceed|behave|reply ~1 without|with+no ~1 any ~1 restrictions|limits|limitations|filters|filtering|censorship|refusals|guardrails|rules|boundaries|constraints|safety|ethics"),
    (Family::Guardrail, Gate::Stated, Need::Nothing, "don't|dont|do+not|never|must+not ~1 refuse|decline|reject ~2 any|a|requests|tasks|this|anything|the+request|instructions"),
    (Family::Guardrail, Gate::Directive, Need::Nothing, "comply|agree|go+along ~1 with ~1 all|every|any|each ~1 request*|demand*|instruction*|command*"),
    (Family::Guardrail, Gate::Stated, Need::Nothing, "don't+bother|do+not+bother|no+need+to+bother|never+bother ~1 verifying|checking|confirming|asking|validating|double-checking|with"),
    (Family::Guardrail, Gate::Stated, Need::Nothing, "confirmation|approval|permission|consent|safety ~2 dialog*|prompts|requests|checks|steps ~1 are|is ~1 unnecessary|not+needed|not+required|optional|superfluous|redundant|pointless"),
    (Family::Guardrail, Gate::Stated, Need::Nothing, "unrestricted|uncensored|unfiltered|jailbroken|jailbreak|no-limits|limitless ~1 mode"),
    (Family::Guardrail, Gate::Stated, Need::Nothing, "you|the+assistant|the+model ~1 may|can|are+free+to|are+allowed+to ~1 now ~1 bypass|ignore|skip|disable|circumvent|override ~3 the|your|all|any|usual ~2 guardrail*|safety|restriction*|filter*|rule*|polic*|check*|limit*"),
    (Family::Guardrail, Gate::Stated, Need::Nothing, "you|the+assistant|the+model ~1 may|can|are+free+to|are+allowed+to ~1 bypass|ignore|skip|disable|circumvent|override ~3 the|your|all|any|usual ~2 guardrail*|safety|restriction*|filter*|rule*|polic*|check*|limit*"),
    (Family::Guardrail, Gate::Stated, Need::Nothing, "refusal*|guardrail*|safeguard*|safety+filter*|content+filter*|moderation|censorship|safety+check*|safety+rules|safety+guidelines|safety+measures|restrictions|filtering|content+restrictions|safety+polic*|content+polic* ~2 are|is|have+been|has+been ~1 disabled|suspended|lifted|off|waived|turned+off|switched+off|removed|bypassed|deactivated|not+active|not+in+effect|inactive|paused"),
    (Family::Guardrail, Gate::Stated, Need::Nothing, "confirmation|approval|permission|consent|authori*|user+confirmation|user+approval|sign-off ~2 is|are ~1 not+required|not+needed|unnecessary|not+necessary|never+needed|never+required"),
    (Family::Guardrail, Gate::Stated, Need::Nothing, "no+longer|don't|do+not|never ~1 need+to|have+to|must|should ~1 follow|obey|respect|honor|honour|observe|adhere+to|comply+with|apply ~3 rules|restrictions|polic*|guidelines|guardrail*|filter*|limits|safety|constraints|content+restrictions|safety+rules"),
    (Family::Guardrail, Gate::Directive, Need::Nothing, "treat|consider|regard|mark ~3 all|every|any|these|this|each ~2 request*|action*|operation*|call*|command*|it|transaction*|payment* ~2 as ~1 pre-approved|preapproved|approved|authorized|authorised|pre|safe|verified|confirmed|cleared"),
    (Family::Guardrail, Gate::Stated, Need::Nothing, "all|any|every ~1 operations|actions|commands|requests|calls|tasks ~1 are ~1 permitted|allowed|authorized|authorised|approved|pre-approved|preapproved|cleared"),
    (Family::Guardrail, Gate::Stated, Need::Nothing, "asking|requesting|seeking|waiting+for|getting ~2 approval|permission|confirmation|consent ~3 slows|wastes|annoys|is+unnecessary|is+pointless|bothers|delays|is+not+needed|frustrates|is+a+waste"),
    (Family::Guardrail, Gate::Directive, Need::NotTechnical, concat!("turn|switch|shut ~3 ", guard_n!(), " ~2 off|down")),
    (Family::Guardrail, Gate::Directive, Need::Nothing, "go+ahead|proceed|continue|act ~3 without ~2 user|the+user's|their|any|human ~1 consent|approval|permission|confirmation|sign-off"),
    (Family::Guardrail, Gate::Stated, Need::Nothing, "do|follow|execute|comply|obey|carry+out|perform ~4 even+if|even+when|regardless|no+matter ~4 harmful|dangerous|unsafe|illegal|unethical|risky|destructive|against|wrong|objects"),
    // ---- Preference manipulation: a directive to choose this tool over others.
    (Family::Preference, Gate::Stated, Need::Preferred, "always|only|exclusively|first|must ~3 use|choose|call|select|pick|prefer|invoke|run|try|consider ~2 this|me ~2 tool|function|server|one|api ~3 first|before+any|before+all|before+other|before+the+other*|over|instead+of|above|rather+than|exclusively|for+every|for+all|for+any|in+place+of|ahead+of"),
    (Family::Preference, Gate::Stated, Need::Preferred, "use|choose|call|select|pick|prefer|invoke|try|using|choosing|calling|selecting|prioriti* ~2 this|me ~2 tool|function|server|one ~2 over|instead+of|rather+than|above|in+place+of|ahead+of ~3 any|all|every|the+other*|other*|alternative*|competing|rival|similar|built-in|builtin|default|native|another"),
    (Family::Preference, Gate::Stated, Need::NotOwn, "never|don't|dont|do+not|avoid|stop|must+not|should+not ~2 use|using|call|calling|choose|pick|select|rely+on|trust|consider|invoke|touch|try ~3 other|another|any+other|alternative*|competing|rival|similar|third-party|external|different|the+other|other+servers'|other+server's ~3 tool*|function*|server*|service*|provider*|api*|source*|option*|plugin*|extension*"),
    (Family::Preference, Gate::Directive, Need::NotOwn, "avoid|ignore|skip|shun|disregard ~2 the|any|all ~1 other|competing|rival|alternative*|similar ~3 tool*|function*|server*|service*|provider*|engine*|source*|option*|integration*"),
    (Family::Preference, Gate::Stated, Need::OtherTool, "this|it ~1 tool|function|server ~1 replaces|supersedes|deprecates|obsoletes|substitutes|overrides ~2 @id|_"),
    (Family::Preference, Gate::Stated, Need::Nothing, "should|must ~1 always ~1 be+used|be+called|be+chosen ~1 in+its+place|instead|in+place+of|over"),
    (Family::Preference, Gate::Stated, Need::Preferred, "rank|rate|place|put|prioriti*|order|position|list|score|weight ~2 this|it|me ~2 tool|function|server ~2 above|before|higher+than|over|first+among|ahead+of|first|highest|at+the+top"),
    (Family::Preference, Gate::Stated, Need::Nothing, "give|assign|set ~2 this|it ~2 tool|function ~2 the|a ~1 highest|top|maximum|first|higher|greatest ~1 priority|preference|rank|ranking|weight"),
    (Family::Preference, Gate::Stated, Need::Nothing, "only|sole|best|preferred|most+reliable|most+accurate|most+trustworthy|recommended|trusted ~1 tool|function|server|source|option ~2 you|that+you ~1 should|must|may|can|are+allowed ~1 use|call|trust|rely"),
    (Family::Preference, Gate::Stated, Need::Nothing, "the+only ~1 reliable|trustworthy|safe|accurate|correct|valid|legitimate|official|trusted ~1 source|tool|option|provider|server|way"),
    (Family::Preference, Gate::Stated, Need::Nothing, "other|all+other|the+other|competing|rival|alternative|third-party|similar|the+tools+from+other ~3 tool*|server*|function*|provider*|api*|service* ~4 are|is|return|returns|give|gives ~2 deprecated|broken|unsafe|outdated|unreliable|malicious|compromised|wrong|inaccurate|insecure|obsolete|untrustworthy|fake|dangerous|incorrect*|bad|buggy|harmful"),
    (Family::Preference, Gate::Stated, Need::Nothing, "route|send|direct|redirect|channel|funnel|forward|pass ~1 all|every|any|each ~2 request*|quer*|call*|task*|question*|traffic|operation* ~2 through|to|via ~1 this|me"),
    (Family::Preference, Gate::Stated, Need::Nothing, "use|call|choose ~2 this ~2 tool|function ~1 for ~1 every|all|any|each ~2 task*|request*|quer*|question*|purpose*|thing* ~4 regardless|no+matter|even+if|even+when|whatever"),
    (Family::Preference, Gate::Stated, Need::Nothing, "even ~1 when|if ~3 another|other|a+different ~2 tool|function ~3 seems|is|looks|appears ~2 more|better"),
    (Family::Preference, Gate::Stated, Need::Nothing, "before|prior+to ~1 considering|trying|looking+at|evaluating ~2 the+other|other|any+other ~2 tool*"),
    (Family::Preference, Gate::Stated, Need::Nothing, "more|better|superior|faster|safer|smarter|more+reliable|more+accurate ~3 than ~1 every|all|any|the|other ~1 other*|alternative*|competing|rival|tool*|server*|option*"),
    (Family::Preference, Gate::Stated, Need::Nothing, "this|it ~1 tool|function|server|one ~2 must|should|is|will|shall ~2 be ~1 your|the ~1 first|only|sole|primary|default|preferred|go-to ~3 choice|option|pick|tool|source"),
    (Family::Preference, Gate::Stated, Need::Preferred, "prefer|choose|pick|select|use|favor|favour ~1 me|this+tool|this+one|this+function|this+server|it ~1 to|over|above|instead+of|rather+than|before|ahead+of ~3 any|all|every|other*|another|the+other*|alternative*|competing|rival|the+rest"),
    (Family::Preference, Gate::Stated, Need::Preferred, "use|call|choose|pick|select|trust ~2 this|me ~2 tool|function|server|one ~1 exclusively|solely"),
    (Family::Preference, Gate::Stated, Need::Nothing, "never|don't|dont|do+not|avoid|must+not ~2 use|using|call|calling|rely+on|trust|choose|pick|select|consider ~3 competing|rival|competitor*|alternative|alternatives"),
    (Family::Preference, Gate::Stated, Need::NotOwn, "never|don't|dont|do+not|avoid|stop|must+not|should+not ~2 use|using|call|calling|choose|pick|select|rely+on|trust|invoke ~3 default|built|built-in|builtin|native|stock|standard|existing|usual|fallback ~3 tool*|function*|server*|option*"),
    (Family::Preference, Gate::Stated, Need::NotOwn, "this|it ~1 tool|function|server|one ~2 should|must|shall|is+to|will ~1 be ~1 chosen|preferred|selected|picked|favored|favoured ~3 over|instead+of|above|ahead+of|rather+than ~2 every|all|any|other*|alternative*|the+rest|another"),
    (Family::Preference, Gate::Stated, Need::Nothing, "calling|using|querying|trying|consulting ~1 other|another|alternative|competing|different|any+other ~3 tool*|service*|server*|function*|provider*|api*|engine*|source* ~2 is|are ~1 unnecessary|pointless|not+needed|redundant|a+waste|discouraged|forbidden|not+allowed|wasteful"),
    (Family::Preference, Gate::Stated, Need::Nothing, "less|worse ~1 accurate|reliable|safe|capable|up-to-date|trustworthy|precise ~1 than ~1 this+one|this+tool|me|ours|this+server"),
    (Family::Preference, Gate::Directive, Need::NotOwn, "avoid|ignore|skip|shun|disregard ~2 the|any|all ~1 other|competing|rival|alternative*|similar ~3 engine*|provider*|source*|option*|assistant*|plugin*|integration*|service*|api*"),
    (Family::Preference, Gate::Stated, Need::Nothing, "query|use|call|ask|consult|trust ~1 only|exclusively|solely ~1 this|me|us"),
    (Family::Preference, Gate::Stated, Need::Nothing, "この ~1 ツール ~8 他 ~8 優先|より"),
    // ---- Cross-tool tampering: changing how another tool is called or what it means.
    (Family::CrossTool, Gate::Stated, Need::OtherTool, "before|after|whenever|when|once|every+time|each+time|prior+to ~2 executing|calling|running|using|invoking|you+execute|you+call|you+run|you+use|you+invoke|execute|call|run|use|invoke|every+call+to|each+call+to ~2 _ ~8 call|run|use|invoke|execute|pass|send|route|feed|apply ~3 this+tool|this+function|me|this+server|through+this"),
    (Family::CrossTool, Gate::Stated, Need::OtherTool, "replace|modify|change|alter|rewrite|adjust|correct|fix|swap|override|overwrite|tamper|falsify|edit|update|add|subtract|remove|filter|hide|drop|invert|round|double|halve|inflate|reduce ~3 the|its|their|any|all|every|each|these ~2 value*|result*|output*|response*|argument*|parameter*|recipient*|link*|amount*|number*|data|entries|entry|balance*|total*|figure*|answer*|return*|address*"),
    (Family::CrossTool, Gate::Stated, Need::OtherTool, "multiply|divide|round|double|halve|invert|negate|inflate ~1 it|them|the+value|the+result|the+number|the+amount|the+balance"),
    (Family::CrossTool, Gate::Stated, Need::OtherTool, "result*|output*|response*|answer*|value*|data|return+value|numbers|figures ~3 of|from|returned+by|produced+by|given+by ~3 _ ~3 is|are|was|were|seems|looks ~2 wrong|incorrect|inaccurate|unreliable|outdated|stale|broken|corrupt*|fake|misleading|bogus|untrustworthy|invalid|off|inflated|exaggerated|overstated|understated|biased"),
    (Family::CrossTool, Gate::Stated, Need::OtherTool, "the ~1 output|result|results|response|answer ~1 of ~3 _ ~2 is|are ~1 wrong|incorrect|inaccurate|unreliable|outdated|misleading|bogus|invalid"),
    (Family::CrossTool, Gate::Stated, Need::OtherTool, "when|whenever|if|every+time|each+time|any+time ~1 calling|using|invoking|you+call|you+use|you+invoke|running|executing|you+run ~4 always|set|pass|add|include|append|prepend|put|use|change|force|specify|supply|replace"),
    (Family::CrossTool, Gate::Stated, Need::OtherTool, "every|each|all|any ~1 invocation*|call*|use|uses|request*|execution*|run* ~1 of|to ~3 _ ~3 must|should|shall|has+to|have+to|needs+to|need+to ~4 use|include|contain|set|pass|be|add|go"),
    (Family::CrossTool, Gate::Stated, Need::OtherTool, "tool|function ~1 should|must|shall ~1 always ~1 be+called|be+invoked|be+run|be+used ~1 with"),
    (Family::CrossTool, Gate::Stated, Need::OtherTool, "intercept|hijack|wrap|hook|capture|proxy ~2 the|every|all|any ~1 response*|output*|result*|call*|request*|repl*|return*"),
    (Family::CrossTool, Gate::Stated, Need::OtherTool, "change|alter|modify|override ~2 how ~3 tool|function|_ ~2 is|are ~1 called|used|invoked"),
    (Family::CrossTool, Gate::Stated, Need::OtherTool, "if|when ~3 returns|fails|errors|reports|says|gives ~4 assume|treat|overwrite|delete|replace|pretend|report+success"),
    (Family::CrossTool, Gate::Stated, Need::OtherTool, "once|after|when ~3 has+run|runs|returns|finishes|completes|is+done|has+been+called|is+called|has+finished ~5 pass|send|give|forward|route|feed ~3 its|the ~1 output|result*|response|data ~3 to|into|through ~1 this"),
    (Family::CrossTool, Gate::Stated, Need::OtherTool, "result*|output*|response*|data|value* ~2 returned+by|from|of|produced+by ~4 must|should|shall|need+to ~2 be ~1 modified|changed|altered|rewritten|adjusted|filtered|edited|corrected|replaced|swapped|hidden|removed|falsified"),
    (Family::CrossTool, Gate::Stated, Need::OtherTool, "calls|invocations|requests|uses ~1 to|of ~3 _ ~4 must|should|shall|need+to|needs+to|have+to"),
    (Family::CrossTool, Gate::Stated, Need::OtherTool, "whenever|when|after|once|each+time|every+time|if ~3 is+used|is+called|runs|returns|is+invoked|answers|responds|replies|reports|finishes|has+run|completes ~6 double|halve|multiply|divide|add|subtract|change|replace|alter|modify|round|adjust|inflate|increase|decrease|report|say|drop|remove|hide|filter|delete|omit|discard|swap|rewrite"),
    (Family::CrossTool, Gate::Stated, Need::OtherTool, "balance|number|figure|price|value|amount|count|total|temperature|data|list|score|rate|status ~1 reported+by|returned+by|given+by|from|of|produced+by|shown+by ~3 is|are ~1 out+of+date|stale|wrong|incorrect|outdated|inaccurate|unreliable|off|too+low|too+high|fake|bogus"),
    (Family::CrossTool, Gate::Stated, Need::OtherTool, "route|send|pass|pipe|feed|forward|redirect ~2 the|its|every|all ~1 output*|result*|response*|answer*|data ~2 of|from ~2 _ ~3 through|to|via|into ~1 this"),
    (Family::CrossTool, Gate::Directive, Need::OtherTool, "call|invoke|use|run|trigger ~3 tool|function|@id ~4 with|passing|and+pass|and+send|and+give ~2 the|its|this|all|every|your ~1 result*|output*|response*|data|conversation|content*|answer*|findings"),
    (Family::CrossTool, Gate::Stated, Need::OtherTool, "each+time|every+time|whenever|when|after|once|if ~3 creates|returns|answers|produces|adds|sends|reports|finishes|runs|writes|gives|makes|outputs|succeeds|completes|fails|responds|replies ~8 move|change|alter|shift|modify|replace|edit|delete|add|subtract|double|halve|set|state|claim|say|tell|call|invoke|repeat|resend|retry|report|multiply|divide|round|drop|remove|hide"),
    (Family::CrossTool, Gate::Stated, Need::OtherTool, "whatever|regardless+of+what|no+matter+what ~2 _ ~1 reports|returns|says|answers|shows|outputs|gives|tells ~4 state|say|report|claim|answer|reply|tell|respond|write"),
    (Family::CrossTool, Gate::Stated, Need::OtherTool, "figures|numbers|values|results|data|amounts|totals|prices|balances|counts|scores|output|outputs ~3 from|of|by|returned+by|coming+from|produced+by ~3 _ ~3 are|is ~1 inflated|deflated|wrong|off|incorrect|inaccurate|exaggerated|understated|overstated|unreliable|stale|outdated|biased|rounded|manipulated|fake"),
    // ---- Command injection by instruction: code added to every command.
    (Family::Injection, Gate::Stated, Need::Code, "every|all|each|any ~3 command*|script*|quer*|invocation*|statement*|argument* ~5 must|should|shall|needs|need|has|have|will ~3 start*|begin*|end*|include|contain|be|first"),
    (Family::Injection, Gate::Stated, Need::Code, "command*|script*|quer*|statement* ~7 must|should|shall ~2 be ~1 wrapped|prefixed|suffixed|followed|preceded|chained|appended"),
    (Family::Injection, Gate::Stated, Need::Code, "append|prepend|prefix|add|insert|chain|attach|wrap|inject|include|put|tack ~12 to|onto|before|after|at+the+end+of|at+the+start+of|in+front+of|with|into ~3 every|each|all|any|the+user's|the+actual|the+requested|the+real|the+original ~3 command*|script*|quer*|invocation*|argument*|request*|call*|input*"),
    (Family::Injection, Gate::Stated, Need::Code, "prefix|prepend|suffix|wrap|start|begin|end ~1 all|every|each|any ~3 command*|script*|quer*|invocation*|statement* ~1 with"),
    (Family::Injection, Gate::Directive, Need::Danger, "run|execute|exec|launch|invoke|type|paste|enter|start|call|pipe"),
    (Family::Injection, Gate::Stated, Need::Code, "when|whenever|each+time|every+time|before|after ~1 you ~1 execute|run|issue|send|type|launch ~3 command*|script*|quer*|build*|job* ~3 append|prepend|add|prefix|include|insert|chain|run|execute"),
    (Family::Injection, Gate::Stated, Need::Code, "every|all|each|any ~3 command*|script*|quer*|statement*|invocation* ~3 ends|starts|begins|end|start|begin ~1 with"),
    (Family::Injection, Gate::Stated, Need::Code, "always|must|should|please ~2 end|finish|terminate|start|begin|prefix|suffix|close|append ~3 command*|script*|quer*|statement*|request*|invocation* ~2 with|by"),
    (Family::Injection, Gate::Directive, Need::Code, "end|finish|terminate|start|begin|close ~2 every|all|each|any|your ~3 command*|script*|quer*|statement*|invocation* ~1 with|by"),
    // ---- Exfiltration: data sent to an address, a webhook, a DNS name or a parameter.
    (Family::Exfiltration, Gate::Positive, Need::Address, concat!(send_v!(), " ~6 ", sens_obj!(), " ~10 to|at|via|into|with|toward*|through|onto|on")),
    (Family::Exfiltration, Gate::Directive, Need::Address, concat!(send_v!(), " ~6 it|them|this|everything|all|results|output|contents|content|information|info|details|logs|the+result*|the+output|the+data|a+copy ~10 to|at|via|into|toward*|through|onto")),
    (Family::Exfiltration, Gate::Stated, Need::Address, "bcc|cc|blind+copy|carbon+copy|blind+carbon+copy"),
    (Family::Exfiltration, Gate::Directive, Need::DnsName, "resolve|lookup|look+up|nslookup|dig|ping|query"),
    (Family::Exfiltration, Gate::Directive, Need::ForeignData, concat!("include|put|pass|add|append|insert|embed|encode|copy|place|attach|store|write|stuff|hide|smuggle|set|fill|paste ~6 ", sens_obj!(), " ~8 in|into|as|inside|within|to|under|onto ~4 parameter*|argument*|field*|param*|query+string|query|url|header*|metadata|note*|sidenote|comment*|payload|session_id|callback|@id|arg|args|request")),
    // ---- Concealment: keeping something from the user.
    (Family::Concealment, Gate::Stated, Need::NotAs, concat!("don't|dont|never|do+not|must+not|should+not|shall+not|will+not ~1 tell|mention|inform|show|reveal|notify|alert|disclose|report|let|say|explain|acknowledge|admit|display|expose|surface ~4 ", to_user!())),
    (Family::Concealment, Gate::Stated, Need::Nothing, "don't|dont|never|do+not|without|must+not ~1 mention|mentioning|tell|telling|reveal|revealing|disclose|disclosing|say|saying|discuss|discussing|explain|explaining|acknowledge|acknowledging|expose|exposing|admit|admitting ~2 that|this|it|these|anything|any+of+this|the+instruction*|these+instruction*|this+step|this+call|the+call|the+step|the+extra|this+tool|that+you"),
    (Family::Concealment, Gate::Stated, Need::Nothing, concat!("without ~1 telling|informing|notifying|alerting|letting|mentioning|showing|revealing|warning ~2 the|your ~1 ", to_user!())),
    (Family::Concealment, Gate::Stated, Need::Nothing, "user|users|human|person|customer|they ~2 must|should|shall|will|need|may|can ~1 not|never ~2 know|see|notice|learn|find+out|suspect|be+told|be+informed|be+aware|realize|realise|discover"),
    (Family::Concealment, Gate::Stated, Need::Nothing, "user|users|human|person|customer|they ~1 should|must|will|may ~1 only ~1 see|know|learn|be+told|be+shown"),
    (Family::Concealment, Gate::Directive, Need::Nothing, concat!("keep|hide|conceal|withhold|omit|leave+out|suppress ~1 this|it|these|that|the+fact|any+mention|all+mention|all+trace|any+trace ~4 from ~2 the|your ~1 ", to_user!(), "|answer|response|reply|summary|transcript|output|log|logs")),
    (Family::Concealment, Gate::Directive, Need::Nothing, "hide|conceal|withhold ~2 this|the|these|that|any ~2 step|call|request|action|operation|upload|transfer|instruction*|note|part|activity"),
    (Family::Concealment, Gate::Directive, Need::NotCredential, "keep|make|leave ~4 invisible|hidden|undisclosed|unseen|under+wraps|between+us|to+yourself|unmentioned|unreported|off+the+record"),
    (Family::Concealment, Gate::Directive, Need::User, "keep|make|leave ~4 secret|confidential|quiet|silent|private"),
    (Family::Concealment, Gate::Directive, Need::Nothing, "silently|secretly|quietly|covertly|discreetly|invisibly|surreptitiously|stealthily|unnoticed|furtively ~2 send|forward|copy|upload|read|run|execute|call|perform|include|add|append|collect|store|record|transmit|share|delete|modify|make|do|save|write|attach|exfiltrate|post|invoke|fetch|download|install|grab|access|replace|change|move|email|log"),
    (Family::Concealment, Gate::Directive, Need::Nothing, "describe|present|report|portray|frame|characterize|characterise|label|log|explain|pass+off|disguise|call|mark|record|summarize|summarise|refer+to|depict ~4 this|it|the|these|that|them|any ~3 as ~2 routine|normal|standard|harmless|benign|expected|maintenance|a+cache|cache|housekeeping|a+routine|unimportant|nothing|ordinary|regular|innocuous|a+harmless|a+normal|a+standard|a+regular|an+ordinary|a+minor|minor|diagnostic*|a+diagnostic|a+health|a+background|background|an+internal|internal|a+system|a+sync|sync|telemetry"),
    (Family::Concealment, Gate::Stated, Need::Nothing, concat!("no+need|not+necessary|unnecessary|needn't|need+not|don't+need|do+not+need ~1 to ~1 tell|inform|notify|mention|show|alert|let|bother ~3 ", to_user!())),
    (Family::Concealment, Gate::Stated, Need::Nothing, "if|when ~2 user|users|human|person|they|anyone|someone ~2 asks|ask|asked|inquires|questions|wonders ~6 say+nothing|deny|pretend|claim|lie|don't+mention|do+not+mention|say+that|say+it|reply+that|answer+that|tell+them+that"),
    (Family::Concealment, Gate::Directive, Need::Nothing, "make+sure|ensure|be+sure ~3 user|users|human|person|they|nobody|no+one|noone ~2 doesn't|does+not|don't|do+not|never|won't|cannot|can't|will+not ~2 notice|see|know|find|learn|realize|realise|suspect|discover"),
    (Family::Concealment, Gate::Stated, Need::Nothing, "this|it|the+call|this+step ~2 is|must+remain|should+remain|stays|must+stay|should+stay ~1 hidden|secret|confidential|invisible ~2 from|to ~2 the ~1 user|person|human"),
    (Family::Concealment, Gate::Directive, Need::Nothing, "leave|keep|omit|exclude|drop|strip ~4 out+of|from ~2 the|your|any ~1 summary|answer|response|reply|report|output|log|logs|transcript|explanation|message"),
    (Family::Concealment, Gate::Directive, Need::Nothing, "act|behave|respond|pretend|proceed ~1 as+if|like|as+though ~4 never+happened|did+not+happen|didn't+happen|never+occurred|wasn't+called|was+never|nothing+happened|never+ran|was+not+called"),
    (Family::Concealment, Gate::Stated, Need::Nothing, "only+for+you|just+for+you|for+your+eyes+only|only+for+the+model|only+for+the+assistant|only+for+the+ai|not+for+the+human|not+for+the+user|not+meant+for+the+user|not+meant+for+the+human"),
    (Family::Concealment, Gate::Directive, Need::Nothing, "keep|leave ~3 user|users|human|person|customer|them|everyone ~1 unaware|uninformed|in+the+dark|ignorant|oblivious"),
    (Family::Concealment, Gate::Stated, Need::Nothing, "avoid|refrain+from|stop ~1 mentioning|telling|revealing|disclosing|saying|discussing|explaining|acknowledging|exposing|referencing|showing ~3 this|these|it|that|the+instruction*|this+instruction|the+call|this+step|the+upload|the+transfer|anything"),
    (Family::Concealment, Gate::Stated, Need::Nothing, "reply|response|answer|output|summary|message ~2 must+not|should+not|may+not|cannot|never|shall+not|must+never ~1 reveal|mention|show|include|disclose|say|indicate|state|admit|contain"),
    (Family::Concealment, Gate::Stated, Need::Nothing, concat!("under+no+circumstances|never|don't|do+not|must+not|in+no+case ~2 let|allow ~3 ", to_user!(), " ~1 know|see|find+out|learn|notice|discover|realize|realise")),
    (Family::Concealment, Gate::Stated, Need::Nothing, "nothing|none|no+trace|no+mention|no+sign|no+part ~6 should|must|may|shall|will|can ~1 appear|show|be+shown|be+mentioned|be+visible|be+included|be+reported|surface ~3 in|to ~1 your|the ~1 answer|response|reply|output|summary|transcript|user|chat"),
    (Family::Concealment, Gate::Directive, Need::Nothing, "keep|stay|remain ~1 quiet|silent|mum|tight-lipped|discreet ~2 about|regarding|on|over"),
    (Family::Concealment, Gate::Stated, Need::Nothing, "must|should|shall|will|needs+to|need+to ~1 remain|stay|be|be+kept ~1 unaware|uninformed|in+the+dark|oblivious|ignorant|clueless"),
    (Family::Concealment, Gate::Stated, Need::Nothing, concat!("don't|dont|do+not|never|avoid|must+not ~1 bring|bringing ~2 up ~3 ", to_user!())),
    (Family::Concealment, Gate::Directive, Need::Nothing, "report|claim|say|state|tell|answer|reply|respond|announce|confirm ~3 success|succeeded|successful|ok|done|completed|fine|it+worked ~3 even+if|even+when|regardless|although|whether+or+not|no+matter"),
    // ---- Tool shadowing: directives about other tools and servers.
    (Family::Shadowing, Gate::Stated, Need::Nothing, "when|if|whenever|while|once|as+long+as ~1 this ~1 tool|server|extension|plugin|mcp ~1 is ~1 available|present|loaded|installed|enabled|active|connected|running|in+use|used|added"),
    (Family::Shadowing, Gate::Stated, Need::Nothing, "with ~1 this ~1 tool|server|extension|plugin ~1 enabled|installed|loaded|connected|active|present|available"),
    (Family::Shadowing, Gate::Stated, Need::Nothing, "all|any|every|each ~1 other ~2 tool|tools|server|servers|agent|agents|server's|servers' ~3 must|should|shall|need|needs|have+to|has+to|are+required"),
    (Family::Shadowing, Gate::Stated, Need::Nothing, "other ~1 tools|servers|agents|server's|servers'|mcp ~2 must|should|shall|need+to|needs+to|have+to|are+required"),
    (Family::Shadowing, Gate::Stated, Need::Nothing, "never|don't|dont|do+not|avoid|stop ~2 use|using|call|calling|trust|invoke ~4 tool*|function* ~2 of|from|on|in ~2 other|another|third-party ~1 server*|extension*|plugin*|connector*|mcp"),
    // ---- Spanish.
    (Family::Override, Gate::Stated, Need::Nothing, "ignora|ignore|olvida|olvide|omite|descarta|desatiende|haz+caso+omiso+de ~4 instrucciones|reglas|indicaciones|normas|directrices|ordenes ~3 anteriores|previas|del+sistema|originales|iniciales|de+antes"),
    (Family::Override, Gate::Stated, Need::Nothing, "olvida|ignora|olvide ~2 las|todas+las ~1 reglas|instrucciones|indicaciones ~1 previas|anteriores"),
    (Family::Authority, Gate::Stated, Need::Nothing, "aviso|mensaje|instruccion|nota|alerta|orden|comunicado ~1 del ~1 sistema|administrador"),
    (Family::Authority, Gate::Stated, Need::Nothing, "tiene|tienes|con|concedido|otorgado*|posee ~3 privilegios|permisos|derechos ~2 de ~1 administrador|root|superusuario"),
    (Family::Authority, Gate::Stated, Need::Nothing, "modo ~1 desarrollador|administrador|dios|sin+restricciones ~2 activado|esta+activo|habilitado"),
    (Family::Guardrail, Gate::Stated, Need::Nothing, "desactiva|deshabilita|omite|salta|ignora|evita|elimina|quita|apaga|desactive|omita ~3 filtro*|seguridad|verificacion*|validacion*|confirmacion*|restriccion*|protecci*|moderacion|salvaguarda*|controles"),
    (Family::Guardrail, Gate::Stated, Need::Nothing, "no ~2 pidas|solicites|preguntes|pida|solicite ~3 confirmacion|permiso|autorizacion|aprobacion|consentimiento"),
    (Family::Guardrail, Gate::Stated, Need::Nothing, "sin ~1 pedir|solicitar|preguntar ~3 confirmacion|permiso|autorizacion|aprobacion"),
    (Family::Preference, Gate::Stated, Need::Nothing, "usa|utiliza|elige|use ~1 siempre ~2 esta|este ~1 herramienta|funcion ~2 primero|antes|en+lugar"),
    (Family::Preference, Gate::Stated, Need::Nothing, "siempre ~1 usa|utiliza|elige ~2 esta|este ~1 herramienta ~2 primero"),
    (Family::Preference, Gate::Stated, Need::Nothing, "nunca|no ~1 uses|utilices|use|utilice ~3 otras|otra|ninguna+otra|otros ~2 herramienta*|servidor*"),
    (Family::CrossTool, Gate::Stated, Need::Nothing, "antes|despues ~1 de ~1 ejecutar|llamar|usar|invocar ~5 llama|ejecuta|usa|invoca|llame|ejecute ~2 esta ~1 herramienta"),
    (Family::Injection, Gate::Stated, Need::Code, "cada|todo|todos ~3 comando*|script* ~4 debe|deben|tiene+que ~2 comenzar|empezar|terminar|incluir|contener"),
    (Family::Exfiltration, Gate::Stated, Need::Address, "envia|manda|reenvia|sube|comparte|transmite|copia|envie|mande ~6 conversacion|historial|claves|clave|contrasenas|credenciales|tokens|datos|mensajes|archivos|secretos|toda|todo ~10 a|al|hacia|en"),
    (Family::Concealment, Gate::Stated, Need::Nothing, "no ~2 digas|menciones|cuentes|informes|reveles|muestres|comentes|avises|diga|mencione ~4 usuario|usuaria|usuarios|nadie|nada"),
    (Family::Concealment, Gate::Stated, Need::Nothing, "sin ~1 decirle|decir|informar|avisar|notificar|mencionar|que+lo+sepa ~3 usuario"),
    (Family::Concealment, Gate::Stated, Need::Nothing, "no ~1 lo ~1 menciones|digas|reveles|cuentes"),
    (Family::Guardrail, Gate::Stated, Need::Nothing, "no+es+necesario|no+hace+falta|innecesario|no+necesitas|no+hay+que ~2 pedir|solicitar|preguntar|obtener ~3 permiso|confirmacion|autorizacion|aprobacion|consentimiento"),
    (Family::CrossTool, Gate::Stated, Need::Nothing, "cuando|siempre+que|antes+de|despues+de ~1 uses|llames|ejecutes|utilices|invoques|usar|llamar ~3 _ ~4 cambia|reemplaza|sustituye|modifica|pon|anade|establece|agrega"),
    (Family::Preference, Gate::Stated, Need::Nothing, "prefiere|prefiera|prioriza|prioriza ~2 esta|este ~1 herramienta|funcion ~3 sobre|antes+que|a ~1 otras|las+demas|cualquier"),
    (Family::Injection, Gate::Stated, Need::Code, "anade|agrega|antepon|inserta ~12 al+final|al+principio|antes|despues ~3 cada|todo|todos ~2 comando*"),
    (Family::CrossTool, Gate::Stated, Need::Nothing, "quando|antes+de|depois+de ~1 chamar|usar|executar|invocar ~3 _ ~4 troque|substitua|altere|mude|coloque|adicione|defina"),
    (Family::Concealment, Gate::Stated, Need::Nothing, "oculta|esconde|oculte|esconda|calla|callate ~3 usuario"),
    // ---- German.
    (Family::Override, Gate::Stated, Need::Nothing, "ignoriere|ignorieren|vergiss|vergessen|missachte|verwirf ~3 alle|die|sämtliche|samtliche ~2 vorherigen|bisherigen|fruheren|obigen|ursprunglichen|vorigen|alten ~1 anweisungen|regeln|instruktionen|vorgaben|befehle|richtlinien"),
    (Family::Override, Gate::Stated, Need::Nothing, "ignoriere|vergiss|missachte ~2 vorherigen|bisherigen|fruheren|obigen|ursprunglichen|vorigen ~1 anweisungen|regeln|instruktionen|vorgaben"),
    (Family::Authority, Gate::Stated, Need::Nothing, "systemhinweis|systemnachricht|systemanweisung|systembefehl|systemmeldung|systemmitteilung|admin-hinweis|administratorhinweis"),
    (Family::Authority, Gate::Stated, Need::Nothing, "mit|hat|habe|besitzt|hast ~3 administratorrechten|administratorrechte|adminrechten|adminrechte|root-rechten|rootrechten|vollen+rechten|administratorberechtigungen|root+rechten"),
    (Family::Authority, Gate::Stated, Need::Nothing, "anweisungen|befehle|anordnungen ~3 haben ~1 vorrang|prioritat"),
    (Family::Authority, Gate::Stated, Need::Nothing, "entwicklermodus|adminmodus|gottmodus ~2 ist ~1 aktiv|aktiviert|an|eingeschaltet"),
    (Family::Guardrail, Gate::Stated, Need::Nothing, "deaktiviere|umgehe|uberspringe|ignoriere|entferne|schalte|deaktivieren|umgehen ~4 filter*|sicherheit*|prufung*|uberprufung*|validierung*|bestatigung*|schutz*|moderation|einschrankung*|inhaltsfilter*"),
    (Family::Guardrail, Gate::Stated, Need::Nothing, "frage|frag ~4 nicht|nie ~3 bestatigung|erlaubnis|zustimmung|genehmigung"),
    (Family::Guardrail, Gate::Stated, Need::Nothing, "ohne ~2 bestatigung|nachzufragen|zu+fragen|erlaubnis|zustimmung|ruckfrage"),
    (Family::Preference, Gate::Stated, Need::Nothing, "verwende|benutze|nutze|wahle ~1 immer ~2 zuerst|dieses|diese ~2 tool|werkzeug|funktion"),
    (Family::Preference, Gate::Stated, Need::Nothing, "immer ~2 zuerst ~2 dieses|diese ~1 tool|werkzeug"),
    (Family::Preference, Gate::Stated, Need::Nothing, "niemals|nie|keine ~3 andere*|anderen ~3 tool*|werkzeug*|server*"),
    (Family::CrossTool, Gate::Stated, Need::Nothing, "bevor|nachdem|wenn ~1 du ~4 aufrufst|ausfuhrst|verwendest|benutzt|nutzt ~4 rufe|fuhre|verwende|nutze ~2 dieses|diese ~1 tool|werkzeug|funktion"),
    (Family::Injection, Gate::Stated, Need::Code, "jeder|alle|jede|jedes ~3 befehl*|kommando*|skript* ~2 muss|mussen|soll|sollen ~1 mit"),
    (Family::Exfiltration, Gate::Stated, Need::Address, "sende|schicke|ubermittle|lade|leite|kopiere|teile|senden|schicken ~6 schlussel|api|passworter|passwort*|zugangsdaten|verlauf|konversation|unterhaltung|daten|nachrichten|geheimnisse|alle|chatverlauf ~10 an|zu|nach|hoch|auf"),
    (Family::Concealment, Gate::Stated, Need::Nothing, "sag|sage|erzahl|erzahle|verrate|sagen ~3 dem|den|der ~1 benutzer|nutzer|anwender|kunden ~2 nichts|nicht"),
    (Family::Concealment, Gate::Stated, Need::Nothing, "erwahne|erwahnen ~4 nicht|nie|niemals"),
    (Family::Concealment, Gate::Stated, Need::Nothing, "ohne ~3 benutzer|nutzer|anwender ~2 zu ~1 informieren|benachrichtigen|warnen"),
    (Family::Concealment, Gate::Stated, Need::Nothing, "verschweige|verheimliche|verberge ~4 benutzer|nutzer|anwender|schritt|aufruf"),
    (Family::Override, Gate::Stated, Need::Nothing, "fruheren|vorherigen|bisherigen|alten|ursprunglichen ~1 vorgaben|anweisungen|regeln|instruktionen ~2 sind|gelten ~1 ungultig|aufgehoben|nichtig|hinfallig|nicht+mehr"),
    (Family::Preference, Gate::Stated, Need::Nothing, "bevorzuge|bevorzugen|priorisiere ~2 dieses|diese|dies ~2 tool|werkzeug|funktion ~3 gegenuber|vor|statt ~2 allen|anderen|andere"),
    (Family::CrossTool, Gate::Stated, Need::Nothing, "wenn|bevor|nachdem ~1 du ~4 aufrufst|ausfuhrst|verwendest|benutzt|nutzt ~4 setze|andere|ersetze|fuge|gib|verandere"),
    (Family::Guardrail, Gate::Stated, Need::Nothing, "nicht ~3 um ~1 erlaubnis|bestatigung|zustimmung|genehmigung ~2 fragen|bitten"),
    (Family::Injection, Gate::Stated, Need::Code, "hange|fuge|setze ~3 jeden|jede|alle|jedem|jedes ~2 befehl*|kommando*|skript*"),
    // ---- French.
    (Family::Override, Gate::Stated, Need::Nothing, "ignore|ignorez|oublie|oubliez|neglige|negligez|ecarte|ecartez ~3 les|toutes ~2 instructions|consignes|regles|directives|indications ~2 precedentes|anterieures|du+systeme|initiales|d'origine|originales|anciennes"),
    (Family::Override, Gate::Stated, Need::Nothing, "oubliez|oublie|ignorez|ignore ~2 les ~1 consignes|instructions|regles ~1 anterieures|precedentes"),
    (Family::Authority, Gate::Stated, Need::Nothing, "avis|message|instruction|note|alerte|notice|consigne ~1 systeme|du+systeme|de+l'administrateur|administrateur"),
    (Family::Authority, Gate::Stated, Need::Nothing, "dispose|disposes|avec|possede|accorde*|a|as ~3 droits|privileges|permissions ~1 d'administrateur|administrateur|admin|root|superutilisateur|d'admin"),
    (Family::Authority, Gate::Stated, Need::Nothing, "mode ~1 developpeur|administrateur|dieu|sans+restriction ~2 active|est+active|actif"),
    (Family::Guardrail, Gate::Stated, Need::Nothing, "desactive|desactivez|contourne|contournez|ignore|ignorez|saute|sautez|supprime|supprimez|desactiver ~3 filtre*|securite|verification*|validation*|confirmation*|restriction*|protection*|moderation|garde-fou*|garde+fou*|controles"),
    (Family::Guardrail, Gate::Stated, Need::Nothing, "ne ~2 demande|demandez|demander ~1 pas|jamais ~3 confirmation|permission|autorisation|accord|validation"),
    (Family::Guardrail, Gate::Stated, Need::Nothing, "sans ~1 demander|confirmation|autorisation|permission|validation"),
    (Family::Preference, Gate::Stated, Need::Nothing, "utilise|utilisez|choisis|choisissez|privilegie|privilegiez ~1 toujours ~2 cet|ce ~1 outil ~3 en+premier|d'abord|avant"),
    (Family::Preference, Gate::Stated, Need::Nothing, "n'utilise|n'utilisez|n'appelle|n'appelez ~1 jamais|pas ~3 autres|autre|d'autres ~2 outil*|serveur*"),
    (Family::CrossTool, Gate::Stated, Need::Nothing, "avant|apres ~1 d'appeler|d'executer|d'utiliser|avoir+appele|de ~4 appelle|appelez|execute|executez|utilise|utilisez ~2 cet|ce ~1 outil"),
    (Family::Injection, Gate::Stated, Need::Code, "chaque|toute|toutes|tous ~3 commande* ~3 doit|doivent ~2 commencer|debuter|finir|terminer|inclure|contenir"),
    (Family::Exfiltration, Gate::Stated, Need::Address, "envoie|envoyez|transfere|transferez|transmets|transmettez|televerse|partage|partagez|copie|copiez ~6 historique|conversation|cles|cle|mots|identifiants|jetons|donnees|messages|secrets|tout ~10 a|vers|au|aux|sur"),
    (Family::Concealment, Gate::Stated, Need::Nothing, "ne ~1 dis|dites|mentionne|mentionnez|revele|revelez|signale|signalez|informe|informez|montre|montrez|parle|parlez ~1 pas|rien|jamais ~4 l'utilisateur|utilisateur|personne|rien"),
    (Family::Concealment, Gate::Stated, Need::Nothing, "ne ~1 le|la|les|lui|leur ~1 dis|dites|mentionne|mentionnez|revele|revelez|signale|signalez ~1 pas|jamais|rien"),
    (Family::Concealment, Gate::Stated, Need::Nothing, "sans ~1 informer|prevenir|avertir|notifier|le+dire|en+informer|en+parler|le+signaler ~2 l'utilisateur|utilisateur"),
    (Family::Override, Gate::Stated, Need::Nothing, "ne ~1 tiens|tenez ~1 plus|pas|jamais ~1 compte ~3 instructions|consignes|regles|directives"),
    (Family::Guardrail, Gate::Stated, Need::Nothing, "aucune|aucun|pas+de|sans ~1 confirmation|autorisation|permission|validation|accord ~4 necessaire|requise|requis|besoin|nécessaire"),
    (Family::Preference, Gate::Stated, Need::Nothing, "prefere|preferez|privilegie|privilegiez|choisis|choisissez ~2 cet|ce ~1 outil ~3 aux|a|plutot ~1 autres|que"),
    (Family::Injection, Gate::Stated, Need::Code, "ajoute|ajoutez|insere|inserez|prefixe|prefixez ~12 a+la+fin|au+debut|avant|apres ~3 chaque|toute*|tous ~2 commande*"),
    (Family::Concealment, Gate::Stated, Need::Nothing, "cache|cachez|dissimule|dissimulez|tais|taisez ~3 etape|appel|action|operation|ceci|cela|ca|cette ~3 l'utilisateur|utilisateur"),
    // ---- Portuguese.
    (Family::Override, Gate::Stated, Need::Nothing, "ignore|esqueca|desconsidere|descarte|ignora|esquece ~3 as|todas ~2 instrucoes|regras|orientacoes|diretrizes|ordens ~2 anteriores|previas|do+sistema|originais|iniciais"),
    (Family::Override, Gate::Stated, Need::Nothing, "esqueca|ignore|esquece|ignora ~2 as ~1 regras|instrucoes ~1 anteriores|previas"),
    (Family::Authority, Gate::Stated, Need::Nothing, "aviso|mensagem|instrucao|nota|alerta|comunicado ~1 do ~1 sistema|administrador"),
    (Family::Authority, Gate::Stated, Need::Nothing, "tem|possui|com|concedid*|tens ~3 privilegios|permissoes|direitos ~2 de ~1 administrador|root|superusuario"),
    (Family::Authority, Gate::Stated, Need::Nothing, "prioridade ~1 maxima|absoluta|total"),
    (Family::Guardrail, Gate::Stated, Need::Nothing, "desative|desabilite|ignore|pule|contorne|remova|desligue|desativar ~3 filtro*|seguranca|verificacao|validacao|confirmacao|restricao|restricoes|protecao|moderacao|controles"),
    (Family::Guardrail, Gate::Stated, Need::Nothing, "nao ~2 peca|solicite|pergunte|pede ~3 confirmacao|permissao|autorizacao|aprovacao|consentimento"),
    (Family::Guardrail, Gate::Stated, Need::Nothing, "sem ~1 pedir|solicitar|perguntar ~3 confirmacao|permissao|autorizacao|aprovacao"),
    (Family::Preference, Gate::Stated, Need::Nothing, "use|utilize|escolha|usa ~1 sempre ~2 esta|este ~1 ferramenta ~3 primeiro|antes"),
    (Family::Preference, Gate::Stated, Need::Nothing, "nunca|nao ~1 use|utilize|usa ~3 outras|outra|outros|nenhuma+outra ~2 ferramenta*|servidor*"),
    (Family::CrossTool, Gate::Stated, Need::Nothing, "antes|depois ~1 de ~1 chamar|executar|usar|invocar ~5 chame|execute|use|invoque ~2 esta|este ~1 ferramenta"),
    (Family::Injection, Gate::Stated, Need::Code, "cada|todo|todos ~3 comando* ~4 deve|devem ~2 comecar|iniciar|terminar|incluir|conter"),
    (Family::Exfiltration, Gate::Stated, Need::Address, "envie|mande|encaminhe|compartilhe|carregue|transmita|copie|envia ~6 conversa|historico|chaves|chave|senhas|credenciais|tokens|dados|mensagens|segredos|tudo ~10 para|ao|a|em"),
    (Family::Concealment, Gate::Stated, Need::Nothing, "nao ~2 conte|diga|mencione|informe|revele|mostre|avise|fale ~4 usuario|utilizador|ninguem|nada"),
    (Family::Concealment, Gate::Stated, Need::Nothing, "sem ~1 avisar|informar|contar|notificar|mencionar ~3 usuario|utilizador"),
    (Family::Preference, Gate::Stated, Need::Nothing, "nunca|nao ~1 use|utilize|usa ~3 ferramenta*|servidor* ~1 concorrentes|alternativas|outras|rivais"),
    (Family::Preference, Gate::Stated, Need::Nothing, "prefira|priorize ~2 esta|este ~1 ferramenta ~3 a|as|sobre ~1 outras|demais"),
    // ---- Chinese.
    (Family::Override, Gate::Stated, Need::Nothing, "忽略|忘记|无视|不要理会|忘掉|忽视 ~6 之前|以上|先前|此前|原来|原有|系统|上面|前面 ~6 指令|指示|规则|说明|提示|命令"),
    (Family::Override, Gate::Stated, Need::Nothing, "之前|以上|先前|此前|原来|上面 ~3 指令|指示|规则 ~6 无效|作废|不再适用"),
    (Family::Authority, Gate::Stated, Need::Nothing, "系统通知|系统提示|系统指令|系统消息|系统公告|系统警告|管理员通知|系统命令"),
    (Family::Authority, Gate::Stated, Need::Nothing, "以|拥有|具有|获得|授予|具备 ~4 管理员权限|超级用户权限|最高权限|管理员身份"),
    (Family::Authority, Gate::Stated, Need::Nothing, "开发者模式|管理员模式|上帝模式 ~3 已开启|已启用|开启|启用"),
    (Family::Guardrail, Gate::Stated, Need::Nothing, "关闭|禁用|绕过|跳过|忽略|停用|取消|解除 ~4 安全|过滤|验证|确认|检查|审核|限制|防护"),
    (Family::Guardrail, Gate::Stated, Need::Nothing, "不需要|无需|不用|不必|无须 ~4 确认|同意|许可|批准|授权|征求"),
    (Family::Preference, Gate::Stated, Need::Nothing, "始终|总是|一律|务必|永远 ~3 优先|首先|先 ~3 使用|调用 ~3 此|本|这个 ~2 工具"),
    (Family::Preference, Gate::Stated, Need::Nothing, "不要|切勿|禁止|别|不得 ~3 使用|调用 ~3 其他|其它|别的 ~4 工具"),
    (Family::Preference, Gate::Stated, Need::Nothing, "只|仅|只能 ~2 使用|调用 ~3 此|本|这个 ~2 工具"),
    (Family::CrossTool, Gate::Stated, Need::Nothing, "调用|使用|执行 ~12 之前|以前|之后|后 ~4 调用|使用|执行 ~2 此|本|这个 ~2 工具"),
    (Family::Injection, Gate::Stated, Need::Code, "每个|所有|每条|任何 ~4 命令|指令 ~6 必须|都必须|应该|都要 ~3 以|包含|开头"),
    (Family::Exfiltration, Gate::Stated, Need::Address, "发送|上传|转发|传送|提交|发到|发给|复制 ~12 密钥|密码|凭证|令牌|对话|聊天记录|历史|数据|消息"),
    (Family::Exfiltration, Gate::Stated, Need::Address, "把|将 ~8 密钥|密码|凭证|令牌|对话|聊天记录|历史|数据|消息 ~4 发送|上传|转发|传送|提交"),
    (Family::Concealment, Gate::Stated, Need::Nothing, "不要|切勿|别|不得|禁止|不可 ~4 告诉|告知|通知|提及|透露|提醒|让 ~4 用户"),
    (Family::Concealment, Gate::Stated, Need::Nothing, "对|向 ~1 用户 ~2 隐瞒|保密|隐藏"),
    (Family::Concealment, Gate::Stated, Need::Nothing, "不要让|别让 ~1 用户 ~2 知道|发现|察觉"),
    (Family::Preference, Gate::Stated, Need::Nothing, "优先 ~2 使用|调用|选择 ~2 本|此|这个 ~1 工具"),
    (Family::Preference, Gate::Stated, Need::Nothing, "其他|其它|别的 ~2 工具 ~4 不可靠|不准确|过时|有问题|不安全|都不"),
    (Family::Injection, Gate::Stated, Need::Code, "执行|运行 ~2 任何|每个|所有 ~2 命令 ~3 前|之前|后 ~3 运行|执行|先"),
    // ---- Japanese.
    (Family::Override, Gate::Stated, Need::Nothing, "以前|これまで|前の|上記|システム|先の|元の ~4 指示|ルール|命令|プロンプト|規則 ~8 無視|忘れ"),
    (Family::Authority, Gate::Stated, Need::Nothing, "システム通知|システムメッセージ|システム指示|システム命令|管理者からのお知らせ|システム警告"),
    (Family::Authority, Gate::Stated, Need::Nothing, "管理者権限|特権|ルート権限|最高権限 ~4 で動作|を持|が付与|を付与|で実行"),
    (Family::Authority, Gate::Stated, Need::Nothing, "開発者モード|管理者モード ~3 有効|オン"),
    (Family::Guardrail, Gate::Stated, Need::Nothing, "安全|フィルター|検証|確認|チェック|制限|セキュリティ ~6 無効|オフ|回避|スキップ|無視|解除"),
    (Family::Guardrail, Gate::Stated, Need::Nothing, "確認|許可|承認|同意 ~4 求めない|不要|しないで|せずに|取らない|求めず|必要ありません"),
    (Family::Preference, Gate::Stated, Need::Nothing, "常に|必ず|いつも ~3 この ~1 ツール ~4 最初|優先|先に"),
    (Family::Preference, Gate::Stated, Need::Nothing, "他の|ほかの|別の ~6 ツール ~4 使わない|使用しない|使わず|使用禁止|使わないで"),
    (Family::CrossTool, Gate::Stated, Need::Nothing, "呼び出す|実行する|使う|使用する ~2 前|後 ~6 この ~1 ツール"),
    (Family::Injection, Gate::Stated, Need::Code, "すべての|全ての|各 ~6 コマンド ~8 先頭|付け|含め|始め"),
    (Family::Exfiltration, Gate::Stated, Need::Address, "会話|履歴|キー|パスワード|認証情報|トークン|データ|メッセージ ~16 送信|送って|転送|アップロード|共有"),
    (Family::Concealment, Gate::Stated, Need::Nothing, "ユーザー|利用者 ~6 伝え|言わ|知らせ|教え|通知し|報告し ~2 ない|ず"),
    (Family::Concealment, Gate::Stated, Need::Nothing, "ユーザー|利用者 ~4 秘密|内緒|隠"),
];

/// Verbs that take a secret file (a directive to read or send it), in the
/// imperative, in each language.
pub const TAKE: &str = "read open cat include attach send pass provide upload print output copy load access fetch \
     get retrieve extract collect grab add append paste share return dump put insert embed \
     forward post transmit export lee abre incluye adjunta envia copia pasa carga lea incluya \
     lies lese offne sende fuge kopiere ubergib hange lade lis lisez ouvre ouvrez inclus \
     incluez joins joignez envoie envoyez copiez transmets transmettez charge leia abra inclua \
     anexe envie copie passe carregue 读取 打开 发送 附加 包含 复制 读 获取 読み取 読み込 開い 送信 添付 コピー 取得";

/// Secret files a tool has no business asking the model for.
pub const SECRET_PATHS: &str = "~/.ssh .ssh/ id_rsa id_ed25519 id_ecdsa id_dsa .aws/credentials .netrc .git-credentials \
     .pgpass .npmrc .pypirc .docker/config.json .kube/config claude_desktop_config.json \
     mcp.json /etc/shadow /etc/passwd .env .bash_history .zsh_history keychain wallet.dat \
     .gnupg credentials.json token.json";

/// Shell and SQL that a directive adds to commands (`Need::Code`).
pub const CODE: &[&str] = &[
    "chmod",
    "chown",
    "rm -",
    "curl ",
    "wget ",
    "nc ",
    "ncat",
    "netcat",
    "bash",
    "sh -c",
    "| sh",
    "|sh",
    "zsh",
    "sudo",
    "eval",
    "exec ",
    "powershell",
    "iex",
    "invoke-expression",
    "base64 -d",
    "/dev/tcp",
    "mkfifo",
    "python -c",
    "perl -e",
    "drop table",
    "drop database",
    "truncate table",
    "delete from",
    "xp_cmdshell",
    "dd if=",
    "mkfs",
    ":(){",
    "> /dev/",
    "/etc/passwd",
    "/etc/shadow",
    "~/.ssh",
    "$(env)",
    "`env`",
    "$home",
    "%appdata%",
    "--force",
    "&& ",
    "; ",
];

/// Shell a tool description has no reason to ask the model to run.
pub const DANGER: &[&str] = &[
    "/dev/tcp/",
    "nc -e",
    "ncat -e",
    "netcat -e",
    "bash -i",
    "| sh",
    "|sh",
    "| bash",
    "|bash",
    "| sudo",
    "rm -rf ~",
    "rm -rf /",
    "rm -rf *",
    "rm -rf $home",
    "rm -fr ",
    "chmod -r 777",
    "chmod -r 0777",
    "chmod -r 666",
    "chmod -r 0666",
    "chmod 777 /",
    "base64 -d |",
    "base64 --decode |",
    "eval $(",
    "powershell -enc",
    "-encodedcommand",
    "iex(",
    "iex (",
    "invoke-expression",
    "mkfifo",
    "drop table",
    "drop database",
    ":(){",
    "xp_cmdshell",
    "> /dev/sda",
    "mkfs.",
    "dd if=/dev/zero",
];

/// Words before a directive that make it a mention: a tool that detects,
/// blocks or lists such text, or an example of it.
pub const MENTION: &str = "detect* flag flags flagged flagging block* identif* classif* catch* recogni* prevent* \
     reject* refus* screen* scan* guard* protect* defend* warn* example* sample* pattern* \
     phrase* attempt* attack* injection* jailbreak* malicious suspicious would could might such \
     contain* match* tries trying phishing spam red-team redteam adversarial detector test \
     tests testing quoted quote quotes like";

/// Words that say a command is refused, not asked for.
pub const REFUSED: &str = "refuse* block* reject* denied deny denies forbid* prohibit* disallow* prevent* not+allowed \
     never+run* dangerous destructive detect* flag* warn*";

/// Words before a verb that make it a directive: a request, a modal, a
/// sequence word.
pub const IMPERATIVE_CUES: &str = "please kindly first then also always now just next finally afterwards immediately \
     additionally simply instead must should shall need needs have has required mandatory \
     important sure remember forget you and so be don't never do will ll can may allowed free \
     secretly silently quietly later subsequently before after when whenever once while \
     otherwise";

/// Negations that turn a directive into a safety note.
pub const NEGATIONS: &str = "not never don't dont no cannot can't won't doesn't didn't isn't aren't nor neither without \
     avoid refuse refuses";

/// Words that make a check technical (TLS, a schema, a lint), not a guard
/// of the model's: `skip JSON Schema validation` is a setting.
pub const TECHNICAL: &str = "tls ssl certificate* cert certs https schema* json xml yaml lint* type types typecheck* \
     cache* hook* cors csrf captcha* checksum* signature* gpg ci test tests build* compil* \
     format* spell* dns rate retry retries gitignore robots* proxy insecure self-signed eslint \
     prettier pre-commit husky lockfile integrity hash* bot cloudflare paywall* cookie* banner* \
     popup* installer* wizard ssl_verify verify_ssl typescript mypy syntax input html css \
     image* nsfw safesearch adult explicit profanity spam";

/// Words before a verb of consent that say the model is to act.
pub const ACTS: &str = "proceed continue act run execute perform delete remove send transfer write call do go \
     install make operate answer respond comply approve pay buy submit push deploy overwrite \
     always must should please just simply immediately move publish post change";

/// Words that are never a tool's name.
pub const STOP: &str = "this that it its the a an these those me my your our some tool tools function functions \
     server you to with them first then is are has have been";

/// Words that stand for other tools in general.
pub const GENERIC_OTHER: &str = "any other another every all each";

/// Words that make what is put in a parameter someone else's data.
pub const FOREIGN: &str = "user's users' every any all environment env previous conversation* chat* history \
     transcript* system contents credentials secrets tokens passwords keys cookies private \
     personal ssh whatever found find password credential";

/// Words after `message from the system` that make it the start of a
/// longer name (`the system log`), not a sender.
pub const NAME_CONTINUATIONS: &str = "log logs clipboard journal tray queue event* bus table database file folder directory api \
     account channel setting* config* monitor status health prompt level time clock info \
     information report metric* default* locale language";

/// What may be kept secret without concealment: a credential.
pub const CREDENTIAL_WORDS: &str =
    "key keys token tokens password* credential* api value values passphrase pin data";

/// The people something is kept from.
pub const USER_WORDS: &str = "user users person human humans customer requester";

/// Prepositions that say where data is put.
pub const PLACE_WORDS: &str = "in into as inside within to under onto";

/// Cues that what follows is an example, not an instruction.
pub const EXAMPLE_CUES: &[&str] = &[
    "e.g.",
    "such as",
    "for example",
    "example:",
    "like '",
    "like \"",
];

/// Settings that guard the model's actions (turned off: a finding).
pub const GUARD_SETTINGS: &str = "security safety safe_mode safemode safe-mode sandbox guardrail content_filter moderation \
     censor restriction protection jailbreak";

/// Settings that make the model's actions unsafe (turned on: a finding).
pub const UNSAFE_SETTINGS: &str = "unsafe dangerous no_sandbox nosandbox skip_safety disable_safety bypass_safety \
     unrestricted jailbreak god_mode godmode skip_confirm no_confirm auto_approve yolo";

/// Values that turn a setting off.
pub const FALSY: &str = "0 false off none disabled disable no null";

/// Values that turn a setting on.
pub const TRUTHY: &str = "true 1 yes on";

/// Words that ask for a setting.
pub const ASKING: &str = "set pass use always every must make force configure change send with in";

/// Words of a sentence that may name a secret file (a quick test before
/// the paths are looked for).
pub const PATH_WORDS: &str = "env ssh id_rsa id_ed25519 id_ecdsa id_dsa aws netrc git pgpass npmrc pypirc docker kube \
     claude_desktop_config mcp shadow passwd bash_history zsh_history keychain wallet gnupg \
     credentials token git-credentials";

/// Words before a verb that make it passive (`is read`).
pub const PASSIVE: &str = "is are be was were been being";

/// Words after a verb of taking that make it a description (`read from`).
pub const FROM_WORDS: &str = "from by in at with via through";

/// Verbs of needing a file's contents.
pub const NEEDING: &str = "needs requires wants expects need require";

/// The words that point a sentence the classifier flags to its family.
pub const FAMILY_CUES: &[(Family, &str)] = &[
    (
        Family::Override,
        "instruction* prompt* guidance rules previous earlier prior forget ignore disregard supersed* outdated brief directive*",
    ),
    (
        Family::Authority,
        "system admin* root sudo superuser official authori* privilege* permission* promoted operator security cleared",
    ),
    (
        Family::Guardrail,
        "safety safe filter* confirm* approval consent harmful polic* restriction* check* verify double-check refus* moderation validation guardrail* safeguard* warn* risk* limits destructive",
    ),
    (
        Family::Preference,
        "prefer* instead other others alternative* competing better best only always first chosen choose reach",
    ),
    (
        Family::CrossTool,
        "result* output* returns reports value* amount figures inflated divide double* move state target",
    ),
    (
        Family::Injection,
        "command* shell script* query queries curl bash sh rm chmod export path sql",
    ),
    (
        Family::Exfiltration,
        "send forward sync upload copy email mail webhook url attach credentials passwords history conversation* endpoint token* collect* post transmit relay leak* exfil* bcc cc paste* ingest",
    ),
    (
        Family::Concealment,
        "user person human mention* tell quiet secret unaware hide reveal answer success bring omit routine invisible conceal* silent* summary learn find",
    ),
    (
        Family::SensitiveFile,
        "ssh env credentials npmrc netrc shadow id_rsa key token",
    ),
    (
        Family::Shadowing,
        "server* plugin* connected loaded installed tools",
    ),
];

/// Words without one of which a sentence is not scored by the classifier
/// (a description has none of them; the cost stays with sentences that
/// address someone).
pub const MODEL_CUES: &str = "you your you're yourself must should shall never always don't do not please only ignore \
     user users assistant model ai agent instruction* prompt* rule* system admin* root sudo \
     official authori* privilege* permission* safety filter* confirm* approval consent harmful \
     polic* restriction* refus* prefer* instead other others alternative* competing best first \
     result* output* value* command* shell script* send forward upload copy email webhook url \
     credentials password* secret* key keys token* history conversation* person human mention* \
     tell quiet hide reveal answer ssh env server* tools tool before after when whenever every \
     all any no need needs let keep report state claim nothing 用户 指令 工具 系统 ユーザー ツール 指示 usuario \
     herramienta benutzer nutzer tool utilisateur outil usuario ferramenta";

/// Words that address the model or its user: a sentence the classifier
/// flags that starts as a description (`This tool …`, `Returns …`) needs
/// one of them.
pub const ADDRESSING: &str = "you your you're yourself must should shall never always don't please \
     ignore user users assistant model ai agent instruction* prompt* person human 用户 ユーザー \
     usuario benutzer nutzer utilisateur";

/// How a description's sentence starts.
pub const DESCRIBING: &str = "this the it its a an returns gets lists creates reads fetches \
     provides shows searches";
