/** The editors' studio (/studio): its pages, the content kinds and states, and the labels of content fields the other namespaces do not have. */
import zhCN from './zh-CN.json' with { type: 'json' };
import enUS from './en-US.json' with { type: 'json' };
import zhTW from './zh-TW.json' with { type: 'json' };
import idID from './id-ID.json' with { type: 'json' };
import ptBR from './pt-BR.json' with { type: 'json' };

export default { 'zh-CN': zhCN, 'en-US': enUS, 'zh-TW': zhTW, 'id-ID': idID, 'pt-BR': ptBR };
