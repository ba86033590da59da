/** The audit trail in words: its actions, the kinds of target and the detail fields (lib/auditTrail.ts). */
import zhCN from './zh-CN.json' with { type: 'json' };
import enUS from './en-US.json' with { type: 'json' };
import zhTW from './zh-TW.json' with { type: 'json' };
import idID from './id-ID.json' with { type: 'json' };
import ptBR from './pt-BR.json' with { type: 'json' };

export default { 'zh-CN': zhCN, 'en-US': enUS, 'zh-TW': zhTW, 'id-ID': idID, 'pt-BR': ptBR };
