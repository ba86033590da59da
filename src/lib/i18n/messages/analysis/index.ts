/** The partner analysis pages: statistics, institution comparison, trend, and their charts. */
import zhCN from './zh-CN.json' with { type: 'json' };
import enUS from './en-US.json' with { type: 'json' };
import zhTW from './zh-TW.json' with { type: 'json' };
import idID from './id-ID.json' with { type: 'json' };
import ptBR from './pt-BR.json' with { type: 'json' };

export default { 'zh-CN': zhCN, 'en-US': enUS, 'zh-TW': zhTW, 'id-ID': idID, 'pt-BR': ptBR };
