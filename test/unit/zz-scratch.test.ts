import { it } from 'vitest';
import { Document } from '../../src/contract/content.js';
it('x', () => {
console.log(JSON.stringify(Document.safeParse({object:'document', data:{}, nodes:[]}).error?.issues));
console.log(JSON.stringify(Document.safeParse({object:'document', data:{schemaVersion: 3}, nodes:[{object:'block',type:'paragraph',nodes:[{object:'text',leaves:[{object:'leaf',text:'hi',marks:[]}]}]}]}).error?.issues));
});
